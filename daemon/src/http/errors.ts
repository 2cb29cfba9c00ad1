/** Every deliberate error of the API: a stable code, a status, a message. */
export const ERRORS = {
  unauthorized: { status: 401, message: 'A valid Authorization: Bearer <key> header is required.' },
  key_invalid: { status: 401, message: 'This key is unknown or was revoked.' },
  key_expired: { status: 401, message: 'This key has expired.' },
  scope_missing: { status: 403, message: 'This key does not have the scope this route needs.' },
  subscription_not_allowed: {
    status: 403,
    message: 'This key may not launch on that subscription.',
  },
  forbidden_host: { status: 403, message: 'This Host is not allowed; use a loopback address.' },
  forbidden_origin: { status: 403, message: 'This Origin is not allowed.' },
  not_found: { status: 404, message: 'No such resource.' },
  route_not_found: { status: 404, message: 'No such route.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  malformed_request: { status: 400, message: 'The HTTP request could not be read.' },
  uri_too_long: { status: 414, message: 'A path segment is too long.' },
  headers_too_large: { status: 431, message: 'The request headers are too large.' },
  request_timeout: { status: 408, message: 'The request did not arrive in time.' },
  invalid_request: { status: 400, message: 'The request does not match the schema.' },
  unsupported_media_type: {
    status: 415,
    message: 'Send JSON with Content-Type: application/json.',
  },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  rate_limited: { status: 429, message: 'Too many launches; wait before the next one.' },
  subscription_suspended: {
    status: 409,
    message: 'The subscription is suspended after repeated failed starts.',
  },
  invalid_rules: { status: 400, message: 'The rules are invalid.' },
  rules_changed: {
    status: 409,
    message: 'The rules were saved since the version this change was made on.',
  },
  queue_full: {
    status: 409,
    message: 'The queue already holds the maximum number of instructions.',
  },
  session_ended: { status: 409, message: 'The session has ended.' },
  session_running: {
    status: 409,
    message: 'The session is still running: send it a message instead of resuming it.',
  },
  not_resumable: {
    status: 409,
    message: 'The agent never started a conversation in this session: there is nothing to resume.',
  },
  invalid_conversation_id: {
    status: 422,
    message: "The conversation id is not the agent's own (a UUID): it cannot be resumed.",
  },
  session_not_ready: { status: 409, message: 'The session is not ready for that.' },
  scope_not_allowed: {
    status: 400,
    message: 'Only a Network prompt can be allowed always (for its host and port).',
  },
  permission_not_pending: { status: 409, message: 'This permission request is no longer pending.' },
  subscription_in_use: { status: 409, message: 'The subscription has running sessions.' },
  isolation_unavailable: {
    status: 409,
    message: 'Commands cannot be confined on this machine (bubblewrap and socat are needed).',
  },
  builtin_subscription: {
    status: 409,
    message: 'The built-in demo subscription cannot be changed or deleted.',
  },
  unknown_subscription: { status: 400, message: 'subscription_id names no subscription.' },
  invalid_cwd: { status: 400, message: 'The working directory does not exist or is not a folder.' },
  invalid_config_dir: {
    status: 400,
    message: 'The configuration folder must be an absolute path.',
  },
  quota_exhausted: {
    status: 429,
    message: "The subscription's quota cannot take another session now.",
  },
  library_name_taken: { status: 409, message: 'That name is taken in this scope.' },
  invalid_import: { status: 400, message: 'The path cannot be imported.' },
  mcp_unreachable: { status: 502, message: 'The MCP server could not be listed.' },
  mcp_busy: { status: 503, message: 'Too many MCP listings are running; try again shortly.' },
  agent_unavailable: { status: 503, message: 'The agent binary could not be started.' },
  method_not_allowed: { status: 405, message: 'Method not allowed.' },
  internal_error: { status: 500, message: 'Internal error.' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message ?? ERRORS[code].message);
    this.status = ERRORS[code].status;
  }
}

export function apiError(
  code: ErrorCode,
  message?: string,
  extra?: Record<string, unknown>,
): ApiError {
  return new ApiError(code, message, extra);
}
