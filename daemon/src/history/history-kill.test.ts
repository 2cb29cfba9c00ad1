import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { ImportReport, Session } from '../../../contract/api.js';
import Database from 'better-sqlite3';
import { startDaemonProcess, type DaemonProcess } from '../testing/daemon-process.js';
import { waitFor } from '../testing/harness.js';
import { claudeLines } from '../testing/transcripts.js';

const FILES = 24;
const TURNS = 30;

const conversationId = (n: number): string =>
  `f0000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

async function importedSessions(daemon: DaemonProcess, subscription: string): Promise<Session[]> {
  const answer = await daemon.call<{ items: Session[] }>(
    'GET',
    `/api/sessions?origin=imported&subscription=${subscription}&limit=200`,
  );
  return answer.body.items;
}

describe('history import and a daemon killed with -9 mid-import', () => {
  test('the next start reads on from what was stored: every line once, every response once', async () => {
    const home = mkdtempSync(join(tmpdir(), 'relais-history-kill-'));
    const configDir = join(home, 'claude');
    const project = join(configDir, 'projects', '-home-me-kill');
    mkdirSync(project, { recursive: true });
    const written = new Map<string, string[]>();
    for (let n = 0; n < FILES; n++) {
      const sessionId = conversationId(n);
      const lines = claudeLines({
        sessionId,
        cwd: '/home/me/kill',
        startMs: Date.parse('2026-03-01T08:00:00Z') + n * 3_600_000,
        turns: TURNS,
        // About 1.5 MB a file: the import is still under way when the first sessions show.
        resultBytes: 24_000,
        idPrefix: `k${n}`,
      });
      writeFileSync(join(project, `${sessionId}.jsonl`), lines.map((l) => `${l}\n`).join(''));
      written.set(sessionId, lines);
    }

    let daemon = await startDaemonProcess(join(home, 'relais'), { RELAIS_HISTORY_WATCH: 'off' });
    try {
      const created = await daemon.call('POST', '/api/subscriptions', {
        name: 'Killed',
        agent: 'claude',
        config_dir: configDir,
      });
      const id = created.body.id as string;
      let finished = false;
      void daemon
        .call('POST', `/api/subscriptions/${id}/import`)
        .then(() => (finished = true))
        .catch(() => undefined);
      await waitFor('a first imported session', async () =>
        (await importedSessions(daemon, id)).length > 0 ? true : undefined,
      );
      daemon.child.kill('SIGKILL');
      await new Promise((resolve) => daemon.child.once('exit', resolve));
      assert.equal(finished, false, 'killed while the import was under way');
      await daemon.stop();

      daemon = await startDaemonProcess(join(home, 'relais'), { RELAIS_HISTORY_WATCH: 'off' });
      const report = (await daemon.call<ImportReport>('POST', `/api/subscriptions/${id}/import`))
        .body;
      assert.deepEqual(report.errors, []);
      const sessions = await importedSessions(daemon, id);
      assert.equal(sessions.length, FILES, 'one session per conversation, none twice');
      await daemon.stop();
      const db = new Database(join(home, 'relais', 'relais.db'), { readonly: true });
      try {
        for (const session of sessions) {
          const lines = written.get(session.agent_session_id!)!;
          const events = db
            .prepare('SELECT seq, data FROM events WHERE session_id = ? ORDER BY seq')
            .all(session.id) as { seq: number; data: string }[];
          assert.deepEqual(
            events.map((event) => event.seq),
            lines.map((_, i) => i + 1),
            `${session.agent_session_id}: one event per line`,
          );
          assert.ok(
            events.every((event, i) => event.data === lines[i]),
            `${session.agent_session_id}: every line once, in order`,
          );
          assert.equal(session.turns, TURNS * 2, 'each response counted once');
          assert.equal(session.cwd, '/home/me/kill');
          assert.match(
            session.title ?? '',
            /^Turn 0:/,
            'named by its first prompt, read before the kill',
          );
        }
        const turns = db.prepare('SELECT COUNT(*) FROM turns').pluck().get();
        assert.equal(turns, FILES * TURNS * 2);
      } finally {
        db.close();
      }
    } finally {
      await daemon.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
