import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openDatabase } from '../db/database.js';
import { EventStore } from '../events/event-store.js';
import { SubscriptionRepo } from '../subscriptions/subscription-repo.js';
import { claudeLines } from '../testing/transcripts.js';
import { HistoryImporter } from './history-importer.js';
import { SCHEMA } from '../schema.js';
import { SessionMarksRepo } from '../sessions/session-marks-repo.js';

const CONVERSATION = 'dddddddd-4444-4444-8444-444444444444';

describe('history import and a daemon killed mid-batch', () => {
  test('a cursor is stored only after the events and turns read before it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relais-history-commit-'));
    const db = openDatabase(join(dir, 'relais.db'), SCHEMA);
    const events = new EventStore(db, new SessionMarksRepo(db));
    const configDir = join(dir, 'claude');
    const project = join(configDir, 'projects', '-p');
    mkdirSync(project, { recursive: true });
    const path = join(project, `${CONVERSATION}.jsonl`);
    const lines = claudeLines({ sessionId: CONVERSATION, cwd: '/p', startMs: 0, turns: 3 });
    writeFileSync(path, lines.map((line) => `${line}\n`).join(''));
    const repo = new SubscriptionRepo(db);
    db.prepare(
      `INSERT INTO subscriptions (id, name, agent, config_dir, builtin, created_at)
       VALUES ('work', 'Work', 'claude', ?, 0, '2026-01-01T00:00:00.000Z')`,
    ).run(configDir);
    const importer = new HistoryImporter({
      db,
      events,
      onSession: () => undefined,
      onProgress: () => undefined,
      bounds: { closed: [dir] },
    });
    const count = (sql: string): number => db.prepare(sql).pluck().get() as number;

    // The watcher's read: its responses wait in the turn writer's batch.
    const outcome = await importer.importFile(repo.get('work')!, path, true);
    assert.ok(outcome.lines > 0);
    assert.equal(count('SELECT COUNT(*) FROM turns'), 0, 'the turns are still batched');
    assert.equal(
      count('SELECT COUNT(*) FROM history_files'),
      0,
      'a kill now must read the file again, not skip what was never stored',
    );
    assert.ok(importer.isKnown(path), 'while the daemon runs, the file counts as read');

    importer.flush();
    const turns = count('SELECT COUNT(*) FROM turns');
    assert.ok(turns > 0);
    assert.equal(
      count('SELECT SUM(turns) FROM sessions'),
      turns,
      'the session counts what was written',
    );
    assert.equal(count('SELECT COUNT(*) FROM events'), lines.length);
    assert.equal(
      count('SELECT offset FROM history_files'),
      Buffer.byteLength(lines.map((line) => `${line}\n`).join('')),
    );
    db.close();
  });
});
