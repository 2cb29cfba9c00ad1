import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { escapees, escapingCommand, ESCAPES, newMarker } from '../testing/escapes.js';
import { waitFor } from '../testing/harness.js';
import {
  detectContainment,
  reattachContainer,
  spawnContained,
  type ContainedChild,
} from './containment.js';
import { isAlive } from './process-groups.js';
import { namespacePids } from './proc-table.js';

const containment = detectContainment();
const tag = { name: 'RELAIS_TEST_TAG', value: 'containment' };

/** A stand-in agent: starts every escape, echoes its input, then waits. */
function agent(marker: string, after = 'sleep 300', shell = '/bin/bash'): ContainedChild {
  return spawnContained(
    {
      binary: shell,
      args: ['-c', `${escapingCommand(marker)}; read line; echo "got $line"; ${after}`],
      cwd: tmpdir(),
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', [tag.name]: tag.value },
    },
    { tag, containment },
  );
}

function exited(
  contained: ContainedChild,
): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) =>
    contained.child.once('exit', (code, signal) => resolve(contained.exitOf(code, signal))),
  );
}

describe('session containment', { timeout: 60_000 }, () => {
  it('is a PID namespace on this machine, and says why when it is not', () => {
    assert.equal(containment.mechanism, 'pid-namespace', containment.detail);
    const off = detectContainment('none');
    assert.equal(off.mechanism, 'none');
    assert.match(off.detail, /RELAIS_CONTAINMENT=none/);
  });

  it('keeps the pipes to the agent, knows its pid, and does not make it PID 1', async () => {
    // sh, unlike bash, ignores no signal of its own.
    const contained = agent(newMarker(), 'exit 7', '/bin/sh');
    after(() => contained.container.end(0));
    const pid = await contained.container.ready;
    assert.ok(pid !== null && isAlive(pid));
    assert.equal(namespacePids(pid).at(-1), 2, 'the agent is the init’s first child');
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    assert.match(status, /^SigIgn:\s+0+$/m, 'the agent inherits no ignored signal');
    const output = new Promise<string>((resolve) =>
      contained.child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())),
    );
    const exit = exited(contained);
    contained.child.stdin.write('hello\n');
    assert.equal(await output, 'got hello\n');
    assert.deepEqual(await exit, { code: 7, signal: null });
  });

  it('end() leaves nothing running, whatever the processes did to escape', async () => {
    const marker = newMarker();
    const contained = agent(marker);
    await contained.container.ready;
    await waitFor('every escape running', () => escapees(marker).length === ESCAPES);
    const exit = exited(contained);
    const started = Date.now();
    const signalled = await contained.container.end(500);
    assert.ok(signalled > 0, 'the processes got SIGTERM first');
    assert.deepEqual(escapees(marker), []);
    assert.deepEqual(contained.container.members(), []);
    assert.ok(Date.now() - started < 2500, 'SIGKILL follows SIGTERM after the grace period');
    await exit;
  });

  it('what the agent leaves when it exits on its own ends with it, after a SIGTERM', async () => {
    const marker = newMarker();
    const cwd = mkdtempSync(join(tmpdir(), 'relais-contain-'));
    const job = `(touch ${cwd}/job.lock; trap 'rm ${cwd}/job.lock; exit' TERM; while :; do sleep 0.1; done) &`;
    const contained = spawnContained(
      {
        binary: '/bin/bash',
        args: ['-c', `${escapingCommand(marker)}; ${job} read line; exit 0`],
        cwd,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      },
      { tag, containment },
    );
    await waitFor(
      'every escape and the job',
      () => escapees(marker).length === ESCAPES && existsSync(join(cwd, 'job.lock')),
    );
    const exit = exited(contained);
    contained.child.stdin.end('\n');
    assert.deepEqual(await exit, { code: 0, signal: null });
    assert.deepEqual(escapees(marker), [], 'the namespace is empty once the spawned process exits');
    assert.equal(existsSync(join(cwd, 'job.lock')), false, 'the job got its SIGTERM first');
  });

  it('a daemon that lost its handle finds the namespace again by the recorded init', async () => {
    const marker = newMarker();
    const contained = agent(marker);
    await contained.container.ready;
    await waitFor('every escape running', () => escapees(marker).length === ESCAPES);
    const record = contained.container.record();
    assert.equal(record?.mechanism, 'pid-namespace');
    const found = reattachContainer(JSON.parse(JSON.stringify(record)), tag);
    assert.ok(found.members().length > ESCAPES);
    assert.ok((await found.end(500)) >= ESCAPES);
    assert.deepEqual(escapees(marker), []);
    // A record whose init is gone (or whose pid was reused) names nothing.
    assert.deepEqual(reattachContainer(record, tag).members(), []);
    assert.deepEqual(
      reattachContainer(
        { mechanism: 'pid-namespace', init_pid: process.pid, init_start: 1 },
        tag,
      ).members(),
      [],
    );
  });

  it('the fallback (process group and tag) cannot follow a scrubbed environment: why it is not the default', async () => {
    const marker = newMarker();
    const contained = spawnContained(
      {
        binary: '/bin/bash',
        args: ['-c', `${escapingCommand(marker)}; sleep 300`],
        cwd: tmpdir(),
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', [tag.name]: tag.value },
      },
      { tag, containment: detectContainment('none') },
    );
    await waitFor('every escape running', () => escapees(marker).length === ESCAPES);
    await contained.container.end(200);
    const left = escapees(marker);
    try {
      assert.ok(left.length > 0, 'setsid + env -i leave the group and the tag');
    } finally {
      for (const pid of left) process.kill(pid, 'SIGKILL');
    }
  });
});
