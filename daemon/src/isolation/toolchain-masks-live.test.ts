import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

/** The sandbox settings Claude Code was started with, read from its command line. */
function sandboxDenyRead(pid: number): string[] {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const settings = JSON.parse(args[args.indexOf('--settings') + 1]!) as {
    sandbox: { filesystem: { denyRead: string[] } };
  };
  return settings.sandbox.filesystem.denyRead;
}

describe(
  'a toolchain on PATH: its protected names found once, still out of reach',
  { timeout: 120_000 },
  () => {
    const toolchain = mkdtempSync(join(tmpdir(), 'relais-toolchain-'));
    const savedPath = process.env['PATH'];
    let daemon: TestDaemon;
    before(async () => {
      mkdirSync(join(toolchain, 'bin'));
      mkdirSync(join(toolchain, 'lib'));
      writeFileSync(join(toolchain, '.env.production'), 'TOOLCHAIN-SECRET-ONE\n');
      writeFileSync(join(toolchain, 'lib', 'private.pem'), 'TOOLCHAIN-SECRET-TWO\n');
      writeFileSync(join(toolchain, 'lib', 'readable.txt'), 'TOOLCHAIN-PLAIN\n');
      process.env['PATH'] = `${join(toolchain, 'bin')}:${savedPath}`;
      daemon = await startTestDaemon();
      // The daemon starts its one search as it starts; a session launched sooner keeps the patterns.
      await daemon.relais.app.agents.planner!.toolchainMasks.settled();
    });
    after(async () => {
      process.env['PATH'] = savedPath;
      await daemon.close();
    });

    it('a command reads the toolchain, never its secrets; no pattern left to search', async () => {
      const files = ['.env.production', 'lib/private.pem', 'lib/readable.txt'].map((file) =>
        join(toolchain, file),
      );
      // The engine refuses a command that names a protected file; a script it cannot read through
      // is what the sandbox alone must stop.
      const cwd = workdir();
      writeFileSync(join(cwd, 'read.sh'), `cat ${files.join(' ')}; echo done\n`);
      const s = await SessionDriver.launch(daemon, { cwd, prompt: 'demo:bash sh read.sh' });
      const pending = await s.pendingPermission();
      await s.decide(pending.id, { decision: 'allow' });
      await s.waitResults(1);
      const denyRead = sandboxDenyRead((await s.waitState('idle')).pid!);
      assert.ok(denyRead.includes(files[0]!) && denyRead.includes(files[1]!), denyRead.join(' '));
      assert.ok(!denyRead.some((path) => path.startsWith(`${toolchain}/**`)), 'a pattern is left');
      const recorded = JSON.stringify(await s.events());
      assert.match(
        recorded,
        /TOOLCHAIN-PLAIN/,
        `the toolchain is readable: ${recorded.slice(-3000)}`,
      );
      assert.match(recorded, /done/);
      assert.doesNotMatch(recorded, /TOOLCHAIN-SECRET/);
    });
  },
);
