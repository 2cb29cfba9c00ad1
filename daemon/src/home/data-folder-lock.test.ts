import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startDaemonProcess } from '../testing/daemon-process.js';
import { emptyAgentHome, listenGlobally, waitFor } from '../testing/harness.js';
import { workdir } from '../testing/fixtures.js';
import { DataFolderBusyError, lockDataFolder } from './data-folder-lock.js';

const folder = (): string => mkdtempSync(join(tmpdir(), 'relais-lock-'));

describe('one daemon per data folder', () => {
  it('a second lock on the folder is refused, naming the daemon that holds it', () => {
    const home = folder();
    writeFileSync(
      join(home, 'daemon.json'),
      JSON.stringify({ pid: 4242, base_url: 'http://127.0.0.1:4100' }),
    );
    const first = lockDataFolder(home);
    try {
      assert.throws(
        () => lockDataFolder(home),
        (error: unknown) =>
          error instanceof DataFolderBusyError &&
          /another Relais daemon uses the data folder .* \(pid 4242, http:\/\/127\.0\.0\.1:4100\)/.test(
            error.message,
          ),
      );
    } finally {
      first.release();
    }
    lockDataFolder(home).release();
  });

  it('what a hostile daemon record says is not repeated', () => {
    const home = folder();
    writeFileSync(
      join(home, 'daemon.json'),
      JSON.stringify({ pid: '1; rm -rf ~', base_url: 'http://x\n\u001b[2Jfake' }),
    );
    const first = lockDataFolder(home);
    try {
      assert.throws(
        () => lockDataFolder(home),
        (error: unknown) => error instanceof Error && !/rm -rf|fake|pid/.test(error.message),
      );
    } finally {
      first.release();
    }
  });
});

describe('a second daemon on a data folder in use', { timeout: 120_000 }, () => {
  it('refuses to start and ends none of the first one’s sessions', async () => {
    const home = folder();
    const first = await startDaemonProcess(home);
    const client = await listenGlobally(first.base, first.key);
    try {
      const launched = await first.call('POST', '/api/sessions', {
        subscription_id: 'demo',
        model: 'demo-sonnet',
        app: 'tests',
        cwd: workdir(),
        prompt: 'hello',
      });
      assert.equal(launched.status, 201, launched.text);
      const id = launched.body.id as string;
      await waitFor(
        'idle',
        async () => (await first.call('GET', `/api/sessions/${id}`)).body.state === 'idle',
      );

      const second = spawn(process.execPath, [join(import.meta.dirname, '..', 'main.js')], {
        env: {
          ...process.env,
          RELAIS_HOME: home,
          RELAIS_AGENT_HOME: emptyAgentHome(),
          RELAIS_PORT: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      second.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      second.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      let code: number | null | undefined;
      second.once('exit', (exitCode) => (code = exitCode));
      await waitFor('the second daemon to exit or serve', () =>
        code !== undefined || stdout.includes('Relais is running') ? true : undefined,
      );
      if (code === undefined) second.kill('SIGKILL');
      assert.equal(code, 1, `the second daemon started: ${stdout}`);
      assert.match(stderr, /another Relais daemon uses the data folder/);
      const session = (await first.call('GET', `/api/sessions/${id}`)).body;
      assert.equal(session.state, 'idle', 'the second daemon ended a session of the first');
    } finally {
      client.abort();
      await first.stop();
    }
  });
});
