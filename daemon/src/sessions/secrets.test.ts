import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { agentEnvironment } from '../agents/claude/environment.js';
import { startDaemonProcess } from '../testing/daemon-process.js';
import { rawRequest, waitFor } from '../testing/harness.js';
import { workdir } from '../testing/fixtures.js';

describe('the key stays secret', { timeout: 90_000 }, () => {
  it('never in a log line, an agent argument or an agent environment', async () => {
    const home = mkdtempSync(join(tmpdir(), 'relais-secret-'));
    const cwd = workdir();
    const agentHome = mkdtempSync(join(tmpdir(), 'relais-agent-home-'));
    const daemon = await startDaemonProcess(home, {
      RELAIS_LOG_LEVEL: 'trace',
      RELAIS_AGENT_HOME: agentHome,
    });
    try {
      const key = daemon.key;
      assert.equal(readFileSync(join(home, 'api-key'), 'utf8').trim(), key);
      const launched = await daemon.call('POST', '/api/sessions', {
        subscription_id: 'demo',
        model: 'demo-sonnet',
        cwd,
      });
      assert.equal(launched.status, 201);
      const session = await waitFor('idle', async () => {
        const s = (await daemon.call('GET', `/api/sessions/${launched.body.id}`)).body;
        return s.state === 'idle' ? s : undefined;
      });
      const environ = readFileSync(`/proc/${session.pid}/environ`, 'utf8');
      const cmdline = readFileSync(`/proc/${session.pid}/cmdline`, 'utf8');
      assert.ok(!environ.includes(key), 'the key reached the agent environment');
      assert.ok(!cmdline.includes(key), 'the key reached the agent arguments');
      assert.ok(!environ.includes('RELAIS_HOME='), 'the daemon environment leaked into the agent');
      assert.ok(
        environ.split('\0').includes(`HOME=${agentHome}`),
        'the agent runs with the configured RELAIS_AGENT_HOME',
      );
      await rawRequest(daemon.base, 'GET', '/api/sessions', undefined, {
        authorization: 'Bearer wrong',
      });
      // The log reaches this process through a pipe, on its own time: wait for it, not for the answer.
      await waitFor('the refused request in the log', () =>
        daemon.output().stdout.includes('"statusCode":401') ? true : undefined,
      );
      const { stdout, stderr } = daemon.output();
      const logLines = stdout.split('\n').filter((line) => !line.includes('#key='));
      assert.ok(
        logLines.some((line) => line.includes('"reqId"')),
        'request logs were written',
      );
      assert.ok(
        !logLines.some((line) => line.includes(key)) && !stderr.includes(key),
        'the key appears in a log line',
      );
    } finally {
      await daemon.stop();
    }
  });

  it('the agent environment is built from an allow-list', () => {
    const env = agentEnvironment(
      { configDir: '/cfg', home: '/home/me', sessionTag: 's1' },
      {
        PATH: '/bin',
        ANTHROPIC_API_KEY: 'leak',
        AWS_SECRET_ACCESS_KEY: 'leak',
        CLAUDECODE: '1',
        NODE_OPTIONS: '--inspect',
      },
    );
    assert.equal(env['PATH'], '/bin');
    assert.equal(env['CLAUDE_CONFIG_DIR'], '/cfg');
    for (const name of ['ANTHROPIC_API_KEY', 'AWS_SECRET_ACCESS_KEY', 'CLAUDECODE', 'NODE_OPTIONS'])
      assert.equal(env[name], undefined, name);
  });
});
