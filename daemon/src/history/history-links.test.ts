import assert from 'node:assert/strict';
import {
  appendFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { ImportReport, Session } from '../../../contract/api.js';
import { allEvents } from '../testing/all-events.js';
import { startTestDaemon, waitFor, type TestDaemon } from '../testing/harness.js';
import { claudeLines } from '../testing/transcripts.js';

const ids = Array.from(
  { length: 9 },
  (_, i) => `${String(i + 1).repeat(8)}-1111-4111-8111-111111111111`,
);
const [MINE, WAL, KEY, PASSWD, HARD, OUT, INSIDE, LIVE, LIVE_OUT] = ids as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
const T0 = Date.parse('2026-06-01T09:00:00.000Z');

const transcript = (sessionId: string): string =>
  claudeLines({ sessionId, cwd: '/home/me/project', startMs: T0, turns: 2, resultBytes: 100 })
    .map((line) => `${line}\n`)
    .join('');

async function subscription(daemon: TestDaemon): Promise<{ configDir: string; id: string }> {
  const configDir = mkdtempSync(join(tmpdir(), 'relais-claude-config-'));
  mkdirSync(join(configDir, 'projects'));
  const created = await daemon.call('POST', '/api/subscriptions', {
    name: 'Work',
    agent: 'claude',
    config_dir: configDir,
  });
  assert.equal(created.status, 201, created.text);
  return { configDir, id: created.body.id };
}

async function rescan(daemon: TestDaemon, id: string): Promise<ImportReport> {
  const answer = await daemon.call<ImportReport>('POST', `/api/subscriptions/${id}/import`);
  assert.equal(answer.status, 200, answer.text);
  return answer.body;
}

async function importedIds(daemon: TestDaemon, id: string): Promise<string[]> {
  const answer = await daemon.call<{ items: Session[] }>(
    'GET',
    `/api/sessions?origin=imported&subscription=${id}`,
  );
  assert.equal(answer.status, 200, answer.text);
  return answer.body.items.map((s) => s.agent_session_id ?? '').sort();
}

describe('history import never follows a planted link out of the transcripts', () => {
  test('the data folder (database, WAL, key), /etc/passwd, a hard link and a file outside are never imported', async () => {
    const daemon = await startTestDaemon({ config: { historyWatch: false } });
    const outside = mkdtempSync(join(tmpdir(), 'relais-outside-'));
    const { configDir, id } = await subscription(daemon);
    try {
      const project = join(configDir, 'projects', '-home-me-project');
      mkdirSync(project);
      writeFileSync(join(project, `${MINE}.jsonl`), transcript(MINE));
      assert.ok(existsSync(join(daemon.home, 'relais.db-wal')));
      symlinkSync(join(daemon.home, 'relais.db-wal'), join(project, `${WAL}.jsonl`));
      symlinkSync(join(daemon.home, 'api-key'), join(project, `${KEY}.jsonl`));
      symlinkSync('/etc/passwd', join(project, `${PASSWD}.jsonl`));
      linkSync(join(daemon.home, 'api-key'), join(project, `${HARD}.jsonl`));
      writeFileSync(join(outside, `${OUT}.jsonl`), transcript(OUT));
      symlinkSync(join(outside, `${OUT}.jsonl`), join(project, `${OUT}.jsonl`));
      // A link that stays among the transcripts is followed (a folder an agent moved).
      const other = join(configDir, 'projects', '-home-me-other');
      mkdirSync(other);
      writeFileSync(join(other, `${INSIDE}.jsonl`), transcript(INSIDE));
      symlinkSync(other, join(configDir, 'projects', 'moved'));
      const dbBefore = statSync(join(daemon.home, 'relais.db')).size;

      const report = await rescan(daemon, id);
      assert.deepEqual(await importedIds(daemon, id), [MINE, INSIDE].sort());
      assert.equal(report.sessions, 2, JSON.stringify(report));
      const refused = (name: string) =>
        report.errors.find((e) => e.path === join(project, `${name}.jsonl`))?.error ?? '';
      assert.match(refused(WAL), /data folder|leads out/);
      assert.match(refused(KEY), /data folder|leads out/);
      assert.match(refused(PASSWD), /leads out/);
      assert.match(refused(HARD), /hard link/);
      assert.match(refused(OUT), /leads out/);
      assert.ok(statSync(join(daemon.home, 'relais.db')).size < dbBefore + 10_000_000);
      // A second scan refuses them again and imports nothing new.
      const again = await rescan(daemon, id);
      assert.equal(again.sessions, 0);
      assert.equal(again.lines, 0);
    } finally {
      await daemon.close();
      rmSync(configDir, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('a transcript folder that is a link out, or a file in a zero-access circle, is not read', async () => {
    const daemon = await startTestDaemon({ config: { historyWatch: false } });
    const outside = mkdtempSync(join(tmpdir(), 'relais-outside-'));
    const { configDir, id } = await subscription(daemon);
    const second = await subscription(daemon);
    try {
      // The circle `*.pem` of the default rules: a link inside the folder does not reach it either.
      const projects = join(configDir, 'projects');
      mkdirSync(join(projects, '-p'));
      writeFileSync(join(projects, 'certs.pem'), transcript(KEY));
      symlinkSync('../certs.pem', join(projects, '-p', `${KEY}.jsonl`));
      mkdirSync(join(projects, 'vault.key'));
      writeFileSync(join(projects, 'vault.key', `${WAL}.jsonl`), transcript(WAL));
      const report = await rescan(daemon, id);
      assert.deepEqual(await importedIds(daemon, id), []);
      assert.match(
        report.errors.find((e) => e.path === join(projects, '-p', `${KEY}.jsonl`))?.error ?? '',
        /rules/,
      );
      // The whole transcript folder swapped for a link out of the configuration folder.
      writeFileSync(join(outside, `${OUT}.jsonl`), transcript(OUT));
      rmSync(join(second.configDir, 'projects'), { recursive: true });
      symlinkSync(outside, join(second.configDir, 'projects'));
      const away = await rescan(daemon, second.id);
      assert.deepEqual(await importedIds(daemon, second.id), []);
      assert.match(away.errors[0]?.error ?? '', /leads out/);
    } finally {
      await daemon.close();
      rmSync(configDir, { recursive: true, force: true });
      rmSync(second.configDir, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('links to ".." and "." do not loop, and /api/health answers promptly during the scan', async () => {
    const daemon = await startTestDaemon({ config: { historyWatch: false } });
    const { configDir, id } = await subscription(daemon);
    try {
      const projects = join(configDir, 'projects');
      symlinkSync('..', join(projects, 'l1'));
      symlinkSync('..', join(projects, 'l2'));
      const project = join(projects, '-home-me-project');
      mkdirSync(project);
      symlinkSync('.', join(project, 'self'));
      symlinkSync('..', join(project, 'up'));
      writeFileSync(join(project, `${MINE}.jsonl`), transcript(MINE));
      // A wide tree, so the scan lasts long enough to be watched.
      for (let i = 0; i < 300; i++) {
        const folder = join(projects, `wide-${i}`);
        mkdirSync(folder);
        symlinkSync('..', join(folder, 'back'));
        for (let j = 0; j < 40; j++) writeFileSync(join(folder, `note-${j}.txt`), '');
      }
      const started = Date.now();
      let done = false;
      const scan = rescan(daemon, id).finally(() => (done = true));
      let slowest = 0;
      let probes = 0;
      while (!done && Date.now() - started < 30_000) {
        const sent = Date.now();
        const health = await daemon.call('GET', '/api/health');
        assert.equal(health.status, 200);
        slowest = Math.max(slowest, Date.now() - sent);
        probes++;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const report = await scan;
      if (process.env['RELAIS_SHOW_TIMES'])
        console.log(`scan ${Date.now() - started} ms, ${probes} probes, slowest ${slowest} ms`);
      assert.ok(slowest < 250, `health took ${slowest} ms during the scan (${probes} probes)`);
      assert.ok(Date.now() - started < 20_000, 'the scan ends');
      assert.deepEqual(await importedIds(daemon, id), [MINE]);
      assert.equal(report.sessions, 1);
      assert.match(
        report.errors.find((e) => e.path === join(projects, 'l1'))?.error ?? '',
        /leads out/,
      );
    } finally {
      await daemon.close();
      rmSync(configDir, { recursive: true, force: true });
    }
  });

  test('the watcher follows no link out either', async () => {
    const daemon = await startTestDaemon({ config: { historyWatch: true } });
    const outside = mkdtempSync(join(tmpdir(), 'relais-outside-'));
    const { configDir, id } = await subscription(daemon);
    try {
      const project = join(configDir, 'projects', '-home-me-project');
      mkdirSync(project);
      writeFileSync(join(outside, `${LIVE_OUT}.jsonl`), transcript(LIVE_OUT));
      // A folder reached both directly and through a link inside: one cursor, read once.
      const other = join(configDir, 'projects', '-home-me-other');
      mkdirSync(other);
      writeFileSync(join(other, `${INSIDE}.jsonl`), transcript(INSIDE));
      symlinkSync(other, join(configDir, 'projects', 'a-moved'));
      symlinkSync(other, join(configDir, 'projects', 'z-moved'));
      await daemon.call('POST', `/api/subscriptions/${id}/import`);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      symlinkSync(join(outside, `${LIVE_OUT}.jsonl`), join(project, `${LIVE_OUT}.jsonl`));
      symlinkSync(outside, join(project, 'elsewhere'));
      writeFileSync(join(project, `${LIVE}.jsonl`), transcript(LIVE));
      await waitFor(
        'the conversation written beside the links',
        async () => (await importedIds(daemon, id)).includes(LIVE),
        15_000,
      );
      appendFileSync(join(other, `${INSIDE}.jsonl`), transcript(INSIDE));
      await new Promise((resolve) => setTimeout(resolve, 2500));
      assert.deepEqual(await importedIds(daemon, id), [INSIDE, LIVE].sort());
      const inside = (
        await daemon.call<{ items: Session[] }>(
          'GET',
          `/api/sessions?origin=imported&subscription=${id}`,
        )
      ).body.items.find((s) => s.agent_session_id === INSIDE)!;
      const lines = transcript(INSIDE).split('\n').length - 1;
      assert.equal((await allEvents(daemon, inside.id)).length, 2 * lines);
    } finally {
      await daemon.close();
      rmSync(configDir, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
