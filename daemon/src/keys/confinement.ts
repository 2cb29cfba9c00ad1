import { apiError } from '../http/errors.js';
import type { Confine, RouteInput, RouteSpec } from '../http/route.js';
import { callerKey } from './caller.js';
import type { StoredKey } from './keys-repo.js';

export interface ConfinementDeps {
  /** The key that launched a session: null for the owner's sessions, undefined when none exists. */
  sessionKey(sessionId: string): string | null | undefined;
  /** The session of a permission request, undefined when none exists. */
  permissionSession(permissionId: string): string | undefined;
}

/** Routes whose session is the `:id` of their path. */
const SESSION_PATH = /^\/api\/sessions\/:id(\/|$)/;
/** Lists that take a `caller` filter: a key that may not read everything reads its own. */
const CALLER_FILTERED = new Set(['GET /api/sessions', 'GET /api/permissions']);
const ANALYTICS = /^\/api\/analytics\//;
/** Routes that confine their answer themselves (readerConfinedTo). */
const SELF_CONFINED = new Set(['GET /api/stream']);

type Input = RouteInput<unknown, unknown, unknown>;
type Params = { id?: string } | undefined;

/**
 * What a caller key may touch on a route that admitted its scope: its own sessions (`read`
 * without `read:all`, `steer`), the subscriptions it was given (`launch`), prompts of sessions
 * other keys launched (`decide`, unless `decide_own`). A scoped route this does not recognise is
 * refused to caller keys: confinement fails closed as the scopes do.
 */
export function keyConfinement(deps: ConfinementDeps): Confine {
  return (spec, input) => {
    const key = callerKey(input.request);
    if (key && spec.scope) return confineKey(deps, key, spec, input);
    return input.query;
  };
}

function confineKey(deps: ConfinementDeps, key: StoredKey, spec: RouteSpec, input: Input): unknown {
  const route = `${spec.method} ${spec.url}`;
  switch (spec.scope) {
    case 'read':
      if (key.scopes.includes('read:all') || SELF_CONFINED.has(route)) break;
      if (SESSION_PATH.test(spec.url)) ownSession(deps, key, input);
      // A key that may decide sees every prompt it may answer; other lists are cut to its own.
      else if (route === 'GET /api/permissions' && key.scopes.includes('decide')) break;
      else if (CALLER_FILTERED.has(route)) return { ...(input.query as object), caller: key.id };
      else if (spec.method === 'GET' && ANALYTICS.test(spec.url))
        return { ...(input.query as object), caller: [key.id] };
      else throw refused('read:all');
      break;
    case 'steer':
      if (!SESSION_PATH.test(spec.url)) throw refused('owner');
      ownSession(deps, key, input);
      break;
    case 'launch':
      launchable(spec, key, input);
      break;
    case 'decide':
      decidable(deps, key, route, input);
      break;
    case 'metrics':
      break;
    default:
      throw refused('owner');
  }
  return input.query;
}

function refused(scope: string) {
  return apiError('scope_missing', `This key lacks the scope "${scope}" this route needs.`, {
    scope,
  });
}

/** Another key's session, or the owner's, reads as absent: its existence is not told. */
function ownSession(deps: ConfinementDeps, key: StoredKey, input: Input): void {
  const id = (input.params as Params)?.id;
  if (id === undefined || deps.sessionKey(id) !== key.id)
    throw apiError('not_found', 'No such session.');
}

function launchable(spec: RouteSpec, key: StoredKey, input: Input): void {
  const subscription =
    spec.method === 'POST' && spec.url === '/api/sessions'
      ? (input.body as { subscription_id?: string }).subscription_id
      : spec.url === '/api/subscriptions/:id/launch-wait'
        ? (input.params as Params)?.id
        : undefined;
  if (subscription === undefined) throw refused('owner');
  personStaysInCharge(input.body as LaunchBody | undefined);
  if (!key.subscriptions.includes(subscription))
    throw apiError(
      'subscription_not_allowed',
      `This key may launch on ${key.subscriptions.length} subscription(s); not on this one.`,
    );
}

type LaunchBody = {
  mcp_servers?: Record<string, { command?: string }>;
  confined_without_asking?: boolean;
};

/**
 * What a launch may not bring from a caller key: a stdio MCP server (its command runs on this
 * machine as Relais lists its tools, before any prompt), or commands run without asking a person.
 */
function personStaysInCharge(body: LaunchBody | undefined): void {
  if (Object.values(body?.mcp_servers ?? {}).some((server) => server.command !== undefined))
    throw apiError(
      'scope_missing',
      'Only the owner launches with a command-line MCP server: its command runs unasked. Give it a url.',
      { scope: 'owner' },
    );
  if (body?.confined_without_asking === true)
    throw apiError(
      'scope_missing',
      "A caller key's sessions ask a person: only the owner runs commands without asking.",
      { scope: 'owner' },
    );
}

function decidable(deps: ConfinementDeps, key: StoredKey, route: string, input: Input): void {
  if (route !== 'POST /api/permissions/:id/decision') throw refused('owner');
  if ((input.body as { scope?: string }).scope === 'always')
    throw apiError(
      'scope_missing',
      'Allowing a host always changes what every session may reach: only the owner can.',
      { scope: 'owner' },
    );
  const sessionId = deps.permissionSession((input.params as Params)!.id!);
  if (sessionId === undefined) return;
  if (deps.sessionKey(sessionId) === key.id && !key.scopes.includes('decide_own'))
    throw apiError(
      'scope_missing',
      'This key launched the session asking: a person answers its prompts, unless the key holds "decide_own".',
      { scope: 'decide_own' },
    );
}
