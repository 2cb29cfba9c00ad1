import type { ApiKey, KeyScope } from '../../../contract/keys.js';
import type { Db } from '../db/database.js';

interface KeyRow {
  id: string;
  name: string;
  secret_hash: string;
  prefix: string;
  scopes_json: string;
  subscriptions_json: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  last_used_from: string | null;
}

export interface StoredKey extends ApiKey {
  secret_hash: string;
}

/** The api_keys table: caller keys, each with the hash of its secret. */
export class KeysRepo {
  constructor(private readonly db: Db) {}

  insert(key: StoredKey): void {
    this.db
      .prepare(
        `INSERT INTO api_keys (id, name, secret_hash, prefix, scopes_json, subscriptions_json, created_at, expires_at)
         VALUES (@id, @name, @secret_hash, @prefix, @scopes_json, @subscriptions_json, @created_at, @expires_at)`,
      )
      .run({
        id: key.id,
        name: key.name,
        secret_hash: key.secret_hash,
        prefix: key.prefix,
        scopes_json: JSON.stringify(key.scopes),
        subscriptions_json: JSON.stringify(key.subscriptions),
        created_at: key.created_at,
        expires_at: key.expires_at,
      });
  }

  get(id: string): StoredKey | null {
    const row = this.db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id) as
      KeyRow | undefined;
    return row ? toKey(row) : null;
  }

  /** Newest first. */
  list(): StoredKey[] {
    return (this.db.prepare('SELECT * FROM api_keys ORDER BY id DESC').all() as KeyRow[]).map(
      toKey,
    );
  }

  /** Marks the key revoked; false when it was already, or does not exist. */
  revoke(id: string, at: string): boolean {
    return (
      this.db
        .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
        .run(at, id).changes > 0
    );
  }

  touch(id: string, at: string, from: string | null): void {
    this.db
      .prepare('UPDATE api_keys SET last_used_at = ?, last_used_from = ? WHERE id = ?')
      .run(at, from, id);
  }

  nameTaken(name: string): boolean {
    return (
      this.db
        .prepare('SELECT 1 FROM api_keys WHERE name = ? COLLATE NOCASE AND revoked_at IS NULL')
        .get(name) !== undefined
    );
  }
}

function toKey(row: KeyRow): StoredKey {
  const { scopes_json, subscriptions_json, ...rest } = row;
  return {
    ...rest,
    scopes: JSON.parse(scopes_json) as KeyScope[],
    subscriptions: JSON.parse(subscriptions_json) as string[],
  };
}

export function publicKey(key: StoredKey): ApiKey {
  const { secret_hash: _hidden, ...visible } = key;
  return visible;
}
