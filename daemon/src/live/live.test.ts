import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GlobalStreamLine } from '../../../contract/api.js';
import { startTestDaemon, waitFor, type TestDaemon } from '../testing/harness.js';
import { openNdjsonClient } from '../testing/ndjson-client.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

describe('global live stream', { timeout: 120_000 }, () => {
  let daemon: TestDaemon;
  before(async () => {
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
  });

  it('starts with the open sessions and pending prompts, says once that they are all, then sends changes', async () => {
    const waiting = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      prompt: 'demo:bash touch x.txt',
    });
    const prompt = await waiting.pendingPermission();
    const ended = await SessionDriver.launch(daemon, { cwd: workdir(), prompt: 'hello' });
    await ended.waitResults(1);
    await daemon.call('POST', `/api/sessions/${ended.id}/stop`);
    await ended.waitState('ended');

    const stream = await openNdjsonClient(daemon.base, daemon.key, '/api/stream');
    try {
      // findIndex + 1 is 0 (not yet) or the count of lines up to and with the end.
      const end = await waitFor(
        'the snapshot end',
        () => stream.lines.findIndex((line) => line.value.type === 'snapshot_end') + 1 || undefined,
      );
      const snapshot = stream.lines.slice(0, end - 1).map((line) => line.value);
      assert.deepEqual(stream.lines[end - 1]!.value, { type: 'snapshot_end' });
      assert.ok(
        snapshot.some((line) => line.type === 'session' && line.session.id === waiting.id),
        'the waiting session is in the snapshot',
      );
      assert.ok(
        snapshot.some((line) => line.type === 'permission' && line.permission.id === prompt.id),
        'its prompt is in the snapshot',
      );
      assert.ok(
        !snapshot.some((line) => line.type === 'session' && line.session.id === ended.id),
        'an ended session is not',
      );

      const decided = await daemon.call('POST', `/api/permissions/${prompt.id}/decision`, {
        decision: 'deny',
      });
      assert.equal(decided.status, 200);
      await waitFor('the decision after the snapshot end', () =>
        stream.lines
          .slice(end)
          .some(
            (line) => line.value.type === 'permission' && line.value.permission.id === prompt.id,
          ),
      );
      assert.equal(
        stream.lines.filter((line) => line.value.type === 'snapshot_end').length,
        1,
        'said once',
      );
      for (const line of stream.lines) assert.ok(GlobalStreamLine.safeParse(line.value).success);
    } finally {
      stream.close();
    }
  });
});
