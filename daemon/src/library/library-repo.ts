import type { LibraryItem, LibraryKind } from '../../../contract/library.js';
import type { Db } from '../db/database.js';
import { apiError } from '../http/errors.js';
import { newId, nowIso } from '../ids.js';

interface Row {
  id: string;
  kind: LibraryKind;
  name: string;
  subscription_id: string | null;
  enabled: number;
  content: string;
  created_at: string;
  updated_at: string;
}

const toItem = (row: Row): LibraryItem => ({ ...row, enabled: row.enabled === 1 });

export interface NewItem {
  kind: LibraryKind;
  name: string;
  subscription_id: string | null;
  enabled: boolean;
  content: string;
}

/** The library in SQLite; a name is unique per kind within its scope (common or a subscription). */
export class LibraryRepo {
  constructor(private readonly db: Db) {}

  list(filter: { kind?: LibraryKind; subscriptionId?: string } = {}): LibraryItem[] {
    const rows = this.db
      .prepare('SELECT * FROM library_items ORDER BY kind, name, subscription_id')
      .all() as Row[];
    return rows
      .map(toItem)
      .filter((item) => filter.kind === undefined || item.kind === filter.kind)
      .filter(
        (item) =>
          filter.subscriptionId === undefined ||
          item.subscription_id === null ||
          item.subscription_id === filter.subscriptionId,
      );
  }

  get(id: string): LibraryItem {
    const row = this.db.prepare('SELECT * FROM library_items WHERE id = ?').get(id) as
      Row | undefined;
    if (!row) throw apiError('not_found', 'No such library item.');
    return toItem(row);
  }

  insert(item: NewItem): LibraryItem {
    const now = nowIso();
    const id = newId('lib');
    this.unique(() =>
      this.db
        .prepare(
          'INSERT INTO library_items (id, kind, name, subscription_id, enabled, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          id,
          item.kind,
          item.name,
          item.subscription_id,
          item.enabled ? 1 : 0,
          item.content,
          now,
          now,
        ),
    );
    return this.get(id);
  }

  update(id: string, change: Partial<Omit<NewItem, 'kind'>>): LibraryItem {
    const next = { ...this.get(id), ...change };
    this.unique(() =>
      this.db
        .prepare(
          'UPDATE library_items SET name = ?, subscription_id = ?, enabled = ?, content = ?, updated_at = ? WHERE id = ?',
        )
        .run(next.name, next.subscription_id, next.enabled ? 1 : 0, next.content, nowIso(), id),
    );
    return this.get(id);
  }

  remove(id: string): LibraryItem {
    const item = this.get(id);
    this.db.prepare('DELETE FROM library_items WHERE id = ?').run(id);
    return item;
  }

  private unique(write: () => void): void {
    try {
      write();
    } catch (error: unknown) {
      if (error instanceof Error && /UNIQUE constraint failed/.test(error.message))
        throw apiError(
          'library_name_taken',
          'An item of that kind already has this name in this scope (common or the subscription).',
        );
      throw error;
    }
  }
}
