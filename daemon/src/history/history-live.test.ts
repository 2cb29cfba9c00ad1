import assert from 'node:assert/strict';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { ImportReport, Session } from '../../../contract/api.js';
import { startTestDaemon, waitFor } from '../testing/harness.js';
import { openNdjsonClient } from '../testing/ndjson-client.js';
import { SessionDriver } from '../testing/session-driver.js';
import { claudeLines } from '../testing/transcripts.js';

const OUTSIDE = 'eeeeeeee-5555-4555-8555-555555555555';

describe('history import with the real agent and the watcher', () => {
  test('a conversation Relais launched is not imported again; a copy run outside Relais is', async () => {
    const daemon = await startTestDaemon({ config: { historyWatch: false } });
    const work = mkdtempSync(join(tmpdir(), 'relais-history-work-'));
    try {
      const turnsBefore = async () =>
        (await daemon.call('GET', '/api/analytics/turns?limit=500')).body.items.length as number;
      const session = await SessionDriver.launch(daemon, {
        cwd: work,
        prompt: 'hello from Relais',
      });
      await session.waitResults(1);
      const native = await session.session();
      assert.ok(native.agent_session_id);
      const counted = await turnsBefore();

      const report = (await daemon.call<ImportReport>('POST', '/api/subscriptions/demo/import'))
        .body;
      assert.ok(report.files >= 1, 'the agent wrote its transcript in the subscription folder');
      assert.equal(report.sessions, 0);
      assert.equal(report.lines, 0);
      assert.equal(report.turns, 0);
      const listed = await daemon.call('GET', '/api/sessions?origin=imported&subscription=demo');
      assert.deepEqual(listed.body.items, []);
      assert.equal(await turnsBefore(), counted);

      // The same transcript under another conversation id: a conversation Relais never ran.
      const projects = join(daemon.home, 'subscriptions', 'demo', 'projects');
      const folder = readdirSync(projects).find((name) =>
        readdirSync(join(projects, name)).includes(`${native.agent_session_id}.jsonl`),
      )!;
      const original = readFileSync(
        join(projects, folder, `${native.agent_session_id}.jsonl`),
        'utf8',
      );
      writeFileSync(
        join(projects, folder, `${OUTSIDE}.jsonl`),
        original.replaceAll(native.agent_session_id!, OUTSIDE),
      );
      const second = (await daemon.call<ImportReport>('POST', '/api/subscriptions/demo/import'))
        .body;
      assert.equal(second.sessions, 1);
      assert.equal(second.malformed, 0);
      assert.ok(second.turns >= 1);
      const [outside] = (
        await daemon.call('GET', '/api/sessions?origin=imported&subscription=demo')
      ).body.items as Session[];
      assert.equal(outside!.agent_session_id, OUTSIDE);
      assert.equal(outside!.title, 'hello from Relais');
      assert.equal(outside!.cwd, work);
      assert.equal(outside!.model, 'demo-sonnet');

      // Resume: a live session continues the imported conversation; its transcript is Relais' own from then on.
      const refused = await daemon.call('POST', `/api/sessions/${native.id}/resume`, {});
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error_code, 'session_running');
      const resumed = await daemon.call<Session>('POST', `/api/sessions/${outside!.id}/resume`, {
        prompt: 'and again',
        app: 'tests',
      });
      assert.equal(resumed.status, 201, resumed.text);
      assert.equal(resumed.body.origin, 'relais');
      assert.equal(resumed.body.cwd, work);
      assert.equal(resumed.body.model, 'demo-sonnet');
      assert.equal(
        resumed.body.permission_mode,
        'write',
        'an imported record is read-only; its resume is not',
      );
      const live = new SessionDriver(daemon, resumed.body.id);
      const [result] = await live.waitResults(1);
      assert.equal(result!['is_error'], false);
      const init = (await live.agentLines('system')).find((line) => line['subtype'] === 'init')!;
      assert.equal(init['session_id'], OUTSIDE, 'the same conversation, continued');
      const after = (await daemon.call<ImportReport>('POST', '/api/subscriptions/demo/import'))
        .body;
      assert.equal(after.lines, 0, 'the resumed lines are the live session’s, not imported again');
      assert.equal(after.turns, 0);
      await daemon.call('POST', `/api/sessions/${resumed.body.id}/stop`);
      await daemon.call('POST', `/api/sessions/${native.id}/stop`);
    } finally {
      await daemon.close();
      rmSync(work, { recursive: true, force: true });
    }
  });

  test('the watcher shows a conversation run outside Relais, and streams its new lines', async () => {
    const daemon = await startTestDaemon();
    const configDir = mkdtempSync(join(tmpdir(), 'relais-claude-config-'));
    try {
      const created = await daemon.call('POST', '/api/subscriptions', {
        name: 'Watched',
        agent: 'claude',
        config_dir: configDir,
      });
      const subscription = created.body.id as string;
      // The first import on request starts the watcher of a subscription added after the start.
      await daemon.call('POST', `/api/subscriptions/${subscription}/import`);
      // The transcript folder does not exist yet: the watcher sees it appear.
      const project = join(configDir, 'projects', '-w');
      mkdirSync(project, { recursive: true });
      const lines = claudeLines({ sessionId: OUTSIDE, cwd: '/w', startMs: Date.now(), turns: 1 });
      writeFileSync(
        join(project, `${OUTSIDE}.jsonl`),
        lines
          .slice(0, 2)
          .map((l) => `${l}\n`)
          .join(''),
      );
      const session = await waitFor(
        'the imported session',
        async () =>
          (await daemon.call('GET', `/api/sessions?origin=imported&subscription=${subscription}`))
            .body.items[0] as Session | undefined,
        60_000,
      );
      await waitFor('its first lines', async () =>
        (await daemon.call('GET', `/api/sessions/${session.id}`)).body.last_seq === 2
          ? true
          : undefined,
      );
      const stream = await openNdjsonClient(
        daemon.base,
        daemon.key,
        `/api/sessions/${session.id}/stream?after=2`,
      );
      try {
        appendFileSync(join(project, `${OUTSIDE}.jsonl`), `${lines[2]}\n`);
        const event = await waitFor(
          'the appended line on the stream',
          () => stream.lines.find((line) => line.value.type === 'event')?.value.event,
          60_000,
        );
        assert.equal(event.seq, 3);
        assert.deepEqual(event.data, JSON.parse(lines[2]!));

        // A response closed by a later line is counted at once: the analytics write the import's
        // batched turns before they read.
        appendFileSync(
          join(project, `${OUTSIDE}.jsonl`),
          lines
            .slice(3)
            .map((l) => `${l}\n`)
            .join(''),
        );
        await waitFor(
          'the last appended line on the stream',
          () => stream.lines.find((line) => line.value.event?.seq === lines.length),
          60_000,
        );
        const summary = await daemon.call(
          'GET',
          `/api/analytics/summary?subscription=${subscription}&from=2000-01-01T00:00:00.000Z`,
        );
        assert.equal(summary.status, 200, summary.text);
        assert.ok(summary.body.turns >= 1, `turns: ${summary.body.turns}`);
      } finally {
        stream.close();
      }
    } finally {
      await daemon.close();
      rmSync(configDir, { recursive: true, force: true });
    }
  });
});
