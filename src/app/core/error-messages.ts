import { activeLocale } from './locale-choice';

/**
 * The API's errors in the console's language, by their stable `error_code` (the daemon's ERRORS,
 * daemon/src/http/errors.ts; a daemon test checks each has its line here). The API itself stays
 * English: its message is shown as is in English, where it is often more precise than the code's
 * general sentence, and for any code this map does not know.
 */
const MESSAGES: Record<string, string> = {
  unauthorized: $localize`:api error:A valid API key is required.`,
  key_invalid: $localize`:api error:This key is unknown or was revoked.`,
  key_expired: $localize`:api error:This key has expired.`,
  scope_missing: $localize`:api error:This key does not have the scope this route needs.`,
  subscription_not_allowed: $localize`:api error:This key may not launch on that subscription.`,
  forbidden_host: $localize`:api error:This Host is not allowed; use a loopback address.`,
  forbidden_origin: $localize`:api error:This Origin is not allowed.`,
  not_found: $localize`:api error:No such resource.`,
  route_not_found: $localize`:api error:No such route.`,
  invalid_json: $localize`:api error:The request body is not valid JSON.`,
  malformed_request: $localize`:api error:The HTTP request could not be read.`,
  uri_too_long: $localize`:api error:A path segment is too long.`,
  headers_too_large: $localize`:api error:The request headers are too large.`,
  request_timeout: $localize`:api error:The request did not arrive in time.`,
  invalid_request: $localize`:api error:The request does not match the schema.`,
  unsupported_media_type: $localize`:api error:The request must be JSON.`,
  payload_too_large: $localize`:api error:The request body is too large.`,
  rate_limited: $localize`:api error:Too many launches; wait before the next one.`,
  subscription_suspended: $localize`:api error:The subscription is suspended after repeated failed starts.`,
  invalid_rules: $localize`:api error:The rules are invalid.`,
  rules_changed: $localize`:api error:The rules were saved since the version this change was made on.`,
  queue_full: $localize`:api error:The queue already holds the maximum number of instructions.`,
  session_ended: $localize`:api error:The session has ended.`,
  session_running: $localize`:api error:The session is still running: send it a message instead of resuming it.`,
  not_resumable: $localize`:api error:The agent never started a conversation in this session: there is nothing to resume.`,
  invalid_conversation_id: $localize`:api error:The conversation id is not the agent's own: it cannot be resumed.`,
  session_not_ready: $localize`:api error:The session is not ready for that.`,
  scope_not_allowed: $localize`:api error:Only a Network prompt can be allowed always (for its host and port).`,
  permission_not_pending: $localize`:api error:This permission request is no longer pending.`,
  subscription_in_use: $localize`:api error:The subscription has running sessions.`,
  isolation_unavailable: $localize`:api error:Commands cannot be confined on this machine (bubblewrap and socat are needed).`,
  builtin_subscription: $localize`:api error:The built-in demo subscription cannot be changed or deleted.`,
  unknown_subscription: $localize`:api error:No subscription has this id.`,
  invalid_cwd: $localize`:api error:The working directory does not exist or is not a folder.`,
  invalid_config_dir: $localize`:api error:The configuration folder must be an absolute path.`,
  quota_exhausted: $localize`:api error:The subscription's quota cannot take another session now.`,
  library_name_taken: $localize`:api error:That name is taken in this scope.`,
  invalid_import: $localize`:api error:The path cannot be imported.`,
  mcp_unreachable: $localize`:api error:The MCP server could not be listed.`,
  mcp_busy: $localize`:api error:Too many MCP listings are running; try again shortly.`,
  agent_unavailable: $localize`:api error:The agent binary could not be started.`,
  method_not_allowed: $localize`:api error:Method not allowed.`,
  internal_error: $localize`:api error:Internal error.`,
  daemon_unreachable: $localize`:api error:The daemon does not answer. Is Relais running?`,
};

/** The message to show for an API error: the daemon's own in English, the code's translation else. */
export function errorMessage(code: string, daemonMessage: string): string {
  if (activeLocale() === 'en') return daemonMessage;
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code]! : daemonMessage;
}

/** The sentence for a code the console makes itself (no daemon message). */
export function consoleErrorMessage(code: string): string {
  return MESSAGES[code] ?? code;
}
