import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKey, ApiKeyCreated, KeyScope, RouteScope } from '../../../contract/keys.js';
import { apiError } from '../http/errors.js';
import type { AuditRecord } from '../permissions/audit-log.js';
import { newId, nowIso } from '../ids.js';
import { holdsScope, setCallerKey } from './caller.js';
import type { KeyRequests } from './key-requests.js';
import { displayPrefix, hashSecret, keyIdOf, newSecret, secretMatches } from './key-secret.js';
import { publicKey, type KeysRepo, type StoredKey } from './keys-repo.js';

export interface NewKey {
  name: string;
  scopes: KeyScope[];
  subscriptions: string[];
  expires_at: string | null;
}

/** Last use is written at most this often per key (and whenever the address changes). */
const TOUCH_EVERY_MS = 5_000;
/** Compared against when the presented key names no row, so both paths hash and compare. */
const NO_KEY_HASH = hashSecret('no such key');
const CHANGES = /^(POST|PUT|PATCH|DELETE)$/;
/** Decisions are audited by the broker, with the key. */
const DECISION_URL = '/api/permissions/:id/decision';

export class KeyService {
  private readonly touched = new Map<string, { at: number; from: string | null }>();

  constructor(
    private readonly repo: KeysRepo,
    private readonly requests: KeyRequests,
    private readonly subscriptionExists: (id: string) => boolean,
    private readonly audit: (record: AuditRecord) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  create(body: NewKey): ApiKeyCreated {
    if (body.expires_at !== null && Date.parse(body.expires_at) <= this.now())
      throw apiError('invalid_request', 'body expires_at: the expiry is already past');
    const unknown = body.subscriptions.find((id) => !this.subscriptionExists(id));
    if (unknown)
      throw apiError('unknown_subscription', `No subscription has the id ${unknown.slice(0, 80)}.`);
    if (this.repo.nameTaken(body.name))
      throw apiError('invalid_request', 'body name: a key in use already has this name');
    const id = newId('key');
    const secret = newSecret(id);
    const key: StoredKey = {
      id,
      name: body.name,
      scopes: [...new Set(body.scopes)],
      subscriptions: [...new Set(body.subscriptions)],
      prefix: displayPrefix(secret),
      secret_hash: hashSecret(secret),
      created_at: nowIso(this.now()),
      expires_at: body.expires_at === null ? null : nowIso(Date.parse(body.expires_at)),
      revoked_at: null,
      last_used_at: null,
      last_used_from: null,
    };
    this.repo.insert(key);
    this.audit({
      kind: 'access',
      decision: 'key_created',
      decided_by: 'owner',
      key_id: id,
      detail: `${key.name}: ${key.scopes.join(' ') || 'no scope'}${key.subscriptions.length ? ` on ${key.subscriptions.join(', ')}` : ''}`,
    });
    return { ...publicKey(key), secret };
  }

  list(): ApiKey[] {
    return this.repo.list().map(publicKey);
  }

  /** Revokes the key and ends its open answers (live streams) at once. */
  revoke(id: string): ApiKey {
    const key = this.repo.get(id);
    if (!key) throw apiError('not_found', 'No such key.');
    if (this.repo.revoke(id, nowIso(this.now()))) {
      const ended = this.requests.endAll(id);
      this.audit({
        kind: 'access',
        decision: 'key_revoked',
        decided_by: 'owner',
        key_id: id,
        detail: `${key.name}: ${ended} open answer(s) ended`,
      });
    }
    return publicKey(this.repo.get(id)!);
  }

  /** The guard's check of a key that is not the owner's (see GuardOptions.callerKey). */
  authenticate(
    presented: string,
    scope: RouteScope | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const id = keyIdOf(presented);
    const key = id === null ? null : this.repo.get(id);
    const matches = secretMatches(presented, key?.secret_hash ?? NO_KEY_HASH);
    if (!key || !matches || key.revoked_at !== null) throw apiError('key_invalid');
    if (key.expires_at !== null && Date.parse(key.expires_at) <= this.now())
      throw apiError('key_expired');
    if (!scope)
      throw apiError(
        'scope_missing',
        "This route is the owner's alone: no caller key may use it.",
        {
          scope: 'owner',
        },
      );
    if (!holdsScope(key.scopes, scope))
      throw apiError('scope_missing', `This key lacks the scope "${scope}" this route needs.`, {
        scope,
      });
    setCallerKey(request, key);
    this.requests.track(key.id, reply.raw);
    if (CHANGES.test(request.method) && request.routeOptions.url !== DECISION_URL)
      reply.raw.once('finish', () => this.auditChange(key, request, reply.raw.statusCode));
    this.touch(key.id, request.ip ?? null);
  }

  /** Every change a caller key asks for, done or refused (its decisions have lines of their own). */
  private auditChange(key: StoredKey, request: FastifyRequest, status: number): void {
    const params = request.params as { id?: string } | undefined;
    const body = request.body as { subscription_id?: unknown } | undefined;
    const url = request.routeOptions.url ?? '';
    this.audit({
      kind: 'access',
      session_id: url.startsWith('/api/sessions/:id') ? (params?.id ?? null) : null,
      subscription_id: typeof body?.subscription_id === 'string' ? body.subscription_id : null,
      decision: status < 400 ? 'done' : 'refused',
      decided_by: key.name,
      key_id: key.id,
      detail: `${request.method} ${url} → ${status}`,
    });
  }

  private touch(id: string, from: string | null): void {
    const now = this.now();
    const last = this.touched.get(id);
    if (last && now - last.at < TOUCH_EVERY_MS && last.from === from) return;
    this.touched.set(id, { at: now, from });
    this.repo.touch(id, nowIso(now), from);
  }
}
