import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { GlobalStreamLine, PermissionRequest } from '../../../contract/api.js';
import { startTestDaemon, waitFor, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

describe('permission requests', { timeout: 120_000 }, () => {
  let daemon: TestDaemon;
  before(async () => {
    daemon = await startTestDaemon({ config: { permissionTimeoutMs: 1500 } });
  });
  after(async () => {
    await daemon.close();
  });

  it('no answer before the timeout means refused, with that reason given to the agent', async () => {
    const dir = workdir();
    const s = await SessionDriver.launch(daemon, { cwd: dir, prompt: 'demo:bash touch late.txt' });
    const pending = await s.pendingPermission();
    await s.waitResults(1);
    const settled = (
      await daemon.call<PermissionRequest>('GET', `/api/permissions?session=${s.id}`)
    ).body as unknown as { items: PermissionRequest[] };
    assert.equal(settled.items[0]!.state, 'denied');
    assert.equal(settled.items[0]!.decided_by, 'timeout');
    assert.equal(existsSync(join(dir, 'late.txt')), false);
    const texts = await s.assistantTexts();
    assert.match(texts[texts.length - 1]!, /Nobody answered/);
    const tooLate = await daemon.call('POST', `/api/permissions/${pending.id}/decision`, {
      decision: 'allow',
    });
    assert.equal(tooLate.status, 409);
    assert.equal(tooLate.body.error_code, 'permission_not_pending');
  });

  it('the global stream announces prompts, and stopping a session cancels its pending prompts', async () => {
    const lines: GlobalStreamLine[] = [];
    const controller = new AbortController();
    const response = await fetch(`${daemon.base}/api/stream`, {
      headers: { authorization: `Bearer ${daemon.key}` },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += decoder.decode(value, { stream: true });
          let nl: number;
          while ((nl = buffer.indexOf('\n')) >= 0) {
            lines.push(JSON.parse(buffer.slice(0, nl)) as GlobalStreamLine);
            buffer = buffer.slice(nl + 1);
          }
        }
      } catch {
        // Aborted at the end of the test.
      }
    })();
    try {
      const s = await SessionDriver.launch(daemon, {
        cwd: workdir(),
        prompt: 'demo:bash touch x.txt',
      });
      const pending = await waitFor('a pending prompt on the global stream', () =>
        lines.find(
          (l) =>
            l.type === 'permission' &&
            l.permission.session_id === s.id &&
            l.permission.state === 'pending',
        ),
      );
      assert.equal(pending.type, 'permission');
      await waitFor('the session shown waiting', () =>
        lines.find(
          (l) => l.type === 'session' && l.session.id === s.id && l.session.state === 'waiting',
        ),
      );
      await daemon.call('POST', `/api/sessions/${s.id}/stop`);
      await s.waitState('ended');
      const cancelled = await waitFor('the prompt cancelled', () =>
        lines.find(
          (l) =>
            l.type === 'permission' &&
            l.permission.session_id === s.id &&
            l.permission.state === 'cancelled',
        ),
      );
      assert.ok(cancelled);
    } finally {
      controller.abort();
    }
  });

  it('unknown permission → 404; bad decision → 400', async () => {
    assert.equal(
      (await daemon.call('POST', '/api/permissions/perm_nope/decision', { decision: 'allow' }))
        .status,
      404,
    );
    assert.equal(
      (await daemon.call('POST', '/api/permissions/perm_nope/decision', { decision: 'maybe' }))
        .status,
      400,
    );
  });
});
