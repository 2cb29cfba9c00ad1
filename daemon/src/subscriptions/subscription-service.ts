import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type {
  AgentKind,
  Subscription,
  SubscriptionCreate,
  SubscriptionPatch,
} from '../../../contract/api.js';
import type { SubscriptionHealth } from '../admission/subscription-health.js';
import type { AgentRegistry } from '../agents/agent.js';
import { apiError } from '../http/errors.js';
import { workingFolderRefusal } from '../sessions/working-folder.js';
import { newId, nowIso } from '../ids.js';
import type { StoredSubscription, SubscriptionRepo } from './subscription-repo.js';

export const DEMO_SUBSCRIPTION_ID = 'demo';
/** The built-in Codex subscription: the real pinned Codex against the same scripted model. */
export const CODEX_DEMO_SUBSCRIPTION_ID = 'demo-codex';

/**
 * A configuration folder is where the agent keeps its login and writes its files: never Relais's
 * data folder (the key, the database), the root or a system tree. Decided on the real path.
 */
function assertConfigDir(path: string, dataHome: string): void {
  const refusal = workingFolderRefusal(path, dataHome, 'The configuration folder');
  if (refusal) throw apiError('invalid_config_dir', refusal);
}

export class SubscriptionService {
  constructor(
    private readonly repo: SubscriptionRepo,
    private readonly agents: AgentRegistry,
    private readonly home: string,
    private readonly hasRunningSessions: (subscriptionId: string) => boolean,
    private readonly health: SubscriptionHealth,
  ) {}

  /** Creates the built-in demo subscriptions (one per agent) on first start. */
  ensureDemo(): void {
    this.ensureBuiltin(DEMO_SUBSCRIPTION_ID, 'Demo (scripted model)', 'claude');
    this.ensureBuiltin(CODEX_DEMO_SUBSCRIPTION_ID, 'Demo Codex (scripted model)', 'codex');
  }

  private ensureBuiltin(id: string, name: string, agent: AgentKind): void {
    const configDir = join(this.home, 'subscriptions', id);
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    if (this.repo.get(id)) return;
    this.repo.insert({
      id,
      name,
      agent,
      config_dir: configDir,
      builtin: true,
      account: null,
      account_key: null,
      models: [],
      detected_at: null,
      detect_error: null,
      created_at: nowIso(),
    });
  }

  list(): Subscription[] {
    const all = this.repo.all();
    return all.map((s) => this.view(s, all));
  }

  get(id: string): Subscription {
    const found = this.repo.get(id);
    if (!found) throw apiError('not_found', 'No such subscription.');
    return this.view(found, this.repo.all());
  }

  stored(id: string): StoredSubscription | null {
    return this.repo.get(id);
  }

  create(body: SubscriptionCreate): Subscription {
    assertConfigDir(body.config_dir, this.home);
    const subscription: StoredSubscription = {
      id: newId('sub'),
      name: body.name,
      agent: body.agent,
      config_dir: body.config_dir,
      builtin: false,
      account: null,
      account_key: null,
      models: [],
      detected_at: null,
      detect_error: null,
      created_at: nowIso(),
    };
    this.repo.insert(subscription);
    return this.get(subscription.id);
  }

  patch(id: string, body: SubscriptionPatch): Subscription {
    const current = this.mutable(id);
    if (body.config_dir !== undefined) assertConfigDir(body.config_dir, this.home);
    this.repo.update({ ...current, ...body });
    return this.get(id);
  }

  delete(id: string): void {
    this.mutable(id);
    if (this.hasRunningSessions(id)) throw apiError('subscription_in_use');
    this.repo.delete(id);
  }

  /** Asks the agent who it is and which models it offers, without generating anything. */
  async detect(id: string): Promise<Subscription> {
    const current = this.repo.get(id);
    if (!current) throw apiError('not_found', 'No such subscription.');
    try {
      const identity = await this.agents.get(current.agent).detect(current);
      this.repo.update({
        ...current,
        account: identity.account,
        account_key: identity.accountKey,
        models: identity.models,
        detected_at: nowIso(),
        detect_error: null,
      });
    } catch (error: unknown) {
      // Detection failing is information about the subscription, not a failed request.
      this.repo.update({
        ...current,
        detected_at: nowIso(),
        detect_error: error instanceof Error ? error.message : String(error),
      });
    }
    return this.get(id);
  }

  /** Lifts a suspension by hand ("Retry" in the console). */
  retry(id: string): Subscription {
    if (!this.repo.get(id)) throw apiError('not_found', 'No such subscription.');
    this.health.retry(id);
    return this.get(id);
  }

  private view(s: StoredSubscription, all: StoredSubscription[]): Subscription {
    const { status, consecutive_failed_starts, last_error, suspended_at, next_wait_seconds } =
      this.health.status(s.id);
    return {
      ...withSharing(s, all),
      status,
      consecutive_failed_starts,
      last_error,
      suspended_at,
      next_wait_seconds,
    };
  }

  private mutable(id: string): StoredSubscription {
    const current = this.repo.get(id);
    if (!current) throw apiError('not_found', 'No such subscription.');
    if (current.builtin) throw apiError('builtin_subscription');
    return current;
  }
}

function withSharing(
  s: StoredSubscription,
  all: StoredSubscription[],
): StoredSubscription & { shares_account_with: string[] } {
  const shares = s.account_key
    ? all.filter((o) => o.id !== s.id && o.account_key === s.account_key).map((o) => o.id)
    : [];
  return { ...s, shares_account_with: shares };
}
