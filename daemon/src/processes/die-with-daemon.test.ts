import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { waitFor } from '../testing/harness.js';
import { boundToDaemon, diesWithDaemon } from './die-with-daemon.js';
import { isAlive } from './process-groups.js';

/** A stand-in daemon: starts `sleep` the way the daemon starts agents, prints its pid, then waits. */
function standInDaemon(bound: boolean): ReturnType<typeof spawn> {
  const script = `
    const { spawn } = require('node:child_process');
    const command = ${JSON.stringify(bound ? boundToDaemon('sleep', ['30']) : { binary: 'sleep', args: ['30'] })};
    const child = spawn(command.binary, command.args, { detached: true, stdio: 'ignore' });
    console.log(child.pid);
    setInterval(() => {}, 1000);
  `;
  return spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
}

async function childOf(daemon: ReturnType<typeof spawn>): Promise<number> {
  let out = '';
  daemon.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return waitFor('the child pid', () =>
    /^(\d+)\n/.exec(out) ? Number(/^(\d+)\n/.exec(out)![1]) : undefined,
  );
}

async function killNine(daemon: ReturnType<typeof spawn>): Promise<void> {
  const exited = new Promise((resolve) => daemon.once('exit', resolve));
  daemon.kill('SIGKILL');
  await exited;
}

describe('a process bound to the daemon', () => {
  it('is there on this machine (util-linux setpriv)', () => {
    assert.equal(diesWithDaemon, true);
  });

  it('ends when the daemon is killed with SIGKILL, in a group of its own', async () => {
    const daemon = standInDaemon(true);
    const pid = await childOf(daemon);
    assert.equal(isAlive(pid), true);
    await killNine(daemon);
    await waitFor('the bound child ended', () => !isAlive(pid), 3000);
  });

  it('an unbound one outlives it (what the binding is for)', async () => {
    const daemon = standInDaemon(false);
    const pid = await childOf(daemon);
    await killNine(daemon);
    await new Promise((resolve) => setTimeout(resolve, 300));
    try {
      assert.equal(isAlive(pid), true);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });
});
