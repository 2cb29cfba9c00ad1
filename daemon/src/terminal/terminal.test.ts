import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startDaemonProcess } from '../testing/daemon-process.js';
import { waitFor } from '../testing/harness.js';
import { renderEvent } from './render-line.js';

describe('terminal', { timeout: 90_000 }, () => {
  it('joins a conversation, sends a message, and leaves without stopping the session', async () => {
    const home = mkdtempSync(join(tmpdir(), 'relais-term-'));
    const daemon = await startDaemonProcess(home);
    try {
      const launched = await daemon.call('POST', '/api/sessions', {
        subscription_id: 'demo',
        model: 'demo-sonnet',
        cwd: mkdtempSync(join(tmpdir(), 'relais-cwd-')),
        prompt: 'first words',
      });
      const id: string = launched.body.id;
      await waitFor(
        'idle',
        async () => (await daemon.call('GET', `/api/sessions/${id}`)).body.state === 'idle',
      );
      const term = spawn(process.execPath, [join(import.meta.dirname, 'main.js'), id], {
        env: { ...process.env, RELAIS_HOME: home },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      let out = '';
      term.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await waitFor('the earlier reply', () =>
        out.includes('agent ▸ Demo model here. You said: first words'),
      );
      term.stdin.write('hello from a shell\n');
      await waitFor('the new reply', () =>
        out.includes('agent ▸ Demo model here. You said: hello from a shell'),
      );
      assert.match(out, /you ▸ hello from a shell/);
      term.stdin.write('/quit\n');
      const code = await new Promise((resolve) => term.once('exit', resolve));
      assert.equal(code, 0);
      assert.match(out, /the session goes on/);
      const after = (await daemon.call('GET', `/api/sessions/${id}`)).body;
      assert.equal(after.state, 'idle', 'leaving the terminal does not stop the session');
    } finally {
      await daemon.stop();
    }
  });

  it('renders tool calls, results and prompts as short lines', () => {
    assert.equal(
      renderEvent('agent', {
        type: 'assistant',
        message: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'ls' } }] },
      }),
      'tool ▸ Bash ls',
    );
    assert.equal(
      renderEvent('agent', {
        type: 'user',
        message: { content: [{ type: 'tool_result', content: 'a\nb', is_error: true }] },
      }),
      'result (error) ▸ a',
    );
    assert.match(
      renderEvent('relais', { type: 'relais', subtype: 'permission_asked', tool_name: 'Write' }) ??
        '',
      /Write waits for a person/,
    );
    assert.equal(renderEvent('agent', { type: 'system', subtype: 'init' }), null);
  });
});
