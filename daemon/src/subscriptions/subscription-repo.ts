import type { AgentKind, ModelInfo, Subscription } from '../../../contract/api.js';
import type { Db } from '../db/database.js';

interface SubscriptionRow {
  id: string;
  name: string;
  agent: AgentKind;
  config_dir: string;
  builtin: number;
  account_json: string | null;
  account_key: string | null;
  models_json: string;
  detected_at: string | null;
  detect_error: string | null;
  created_at: string;
}

export type StoredSubscription = Omit<
  Subscription,
  | 'shares_account_with'
  | 'status'
  | 'consecutive_failed_starts'
  | 'last_error'
  | 'suspended_at'
  | 'next_wait_seconds'
>;

export class SubscriptionRepo {
  constructor(private readonly db: Db) {}

  all(): StoredSubscription[] {
    return (
      this.db
        .prepare('SELECT * FROM subscriptions ORDER BY builtin DESC, created_at, id')
        .all() as SubscriptionRow[]
    ).map(toSubscription);
  }

  get(id: string): StoredSubscription | null {
    const row = this.db.prepare('SELECT * FROM subscriptions WHERE id = ?').get(id) as
      SubscriptionRow | undefined;
    return row ? toSubscription(row) : null;
  }

  insert(s: StoredSubscription): void {
    this.db
      .prepare(
        `INSERT INTO subscriptions (id, name, agent, config_dir, builtin, account_json, account_key, models_json,
           detected_at, detect_error, created_at)
         VALUES (@id, @name, @agent, @config_dir, @builtin, @account_json, @account_key, @models_json,
           @detected_at, @detect_error, @created_at)`,
      )
      .run(toRow(s));
  }

  update(s: StoredSubscription): void {
    this.db
      .prepare(
        `UPDATE subscriptions SET name = @name, config_dir = @config_dir, account_json = @account_json,
           account_key = @account_key, models_json = @models_json, detected_at = @detected_at,
           detect_error = @detect_error WHERE id = @id`,
      )
      .run(toRow(s));
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM subscriptions WHERE id = ?').run(id);
  }
}

function toSubscription(row: SubscriptionRow): StoredSubscription {
  return {
    id: row.id,
    name: row.name,
    agent: row.agent,
    config_dir: row.config_dir,
    builtin: row.builtin === 1,
    account: row.account_json ? (JSON.parse(row.account_json) as Record<string, unknown>) : null,
    account_key: row.account_key,
    models: JSON.parse(row.models_json) as ModelInfo[],
    detected_at: row.detected_at,
    detect_error: row.detect_error,
    created_at: row.created_at,
  };
}

function toRow(s: StoredSubscription): SubscriptionRow {
  return {
    id: s.id,
    name: s.name,
    agent: s.agent,
    config_dir: s.config_dir,
    builtin: s.builtin ? 1 : 0,
    account_json: s.account ? JSON.stringify(s.account) : null,
    account_key: s.account_key,
    models_json: JSON.stringify(s.models),
    detected_at: s.detected_at,
    detect_error: s.detect_error,
    created_at: s.created_at,
  };
}
