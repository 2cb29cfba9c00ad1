import assert from 'node:assert/strict';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Session } from '../../../contract/api.js';
import type { Diagnostics } from '../../../contract/operations.js';
import { startDaemonProcess, type DaemonProcess } from '../testing/daemon-process.js';
import { workdir } from '../testing/fixtures.js';

/** A PATH with a shell and the usual tools, but neither bubblewrap nor socat. */
function pathWithout(): string {
  const bin = mkdtempSync(join(tmpdir(), 'relais-path-'));
  for (const tool of ['sh', 'bash', 'cat', 'ls', 'node', 'git']) {
    try {
      symlinkSync(join('/usr/bin', tool), join(bin, tool));
    } catch {
      // Not installed here: not needed.
    }
  }
  return bin;
}

const launch = (daemon: DaemonProcess) =>
  daemon.call<Session & { error_code?: string; message: string }>('POST', '/api/sessions', {
    subscription_id: 'demo',
    model: 'demo-sonnet',
    app: 'tests',
    cwd: workdir(),
  });

describe('confinement unavailable', { timeout: 120_000 }, () => {
  const running: DaemonProcess[] = [];
  after(async () => {
    for (const daemon of running) await daemon.stop();
  });

  it('no bubblewrap on PATH: the launch is refused with 409 and what to install', async () => {
    const daemon = await startDaemonProcess(mkdtempSync(join(tmpdir(), 'relais-test-')), {
      PATH: pathWithout(),
    });
    running.push(daemon);
    assert.match(daemon.output().stdout, /cannot start until commands can be confined.*bubblewrap/);
    const refused = await launch(daemon);
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.error_code, 'isolation_unavailable');
    assert.match(refused.body.message, /apt-get install bubblewrap socat/);
    assert.match(refused.body.message, /socat and find not found.*findutils/);
    assert.match(refused.body.message, /RELAIS_ISOLATION=off/);
    const diagnostics = (await daemon.call<Diagnostics>('GET', '/api/diagnostics')).body;
    assert.equal(diagnostics.isolation.enabled, true);
    assert.equal(diagnostics.isolation.available, false);
    assert.match(diagnostics.isolation.install ?? '', /bubblewrap/);
  });

  it('RELAIS_ISOLATION=off: the session starts, and says it is unconfined', async () => {
    const daemon = await startDaemonProcess(mkdtempSync(join(tmpdir(), 'relais-test-')), {
      PATH: pathWithout(),
      RELAIS_ISOLATION: 'off',
    });
    running.push(daemon);
    assert.match(daemon.output().stdout, /RELAIS_ISOLATION=off/);
    const started = await launch(daemon);
    assert.equal(started.status, 201, started.text);
    assert.equal(started.body.isolated, false);
    const again = await daemon.call<Session>('GET', `/api/sessions/${started.body.id}`);
    assert.equal(again.body.isolated, false);
    const diagnostics = (await daemon.call<Diagnostics>('GET', '/api/diagnostics')).body;
    assert.equal(diagnostics.isolation.enabled, false);
    assert.match(diagnostics.isolation.agents[0]!.mechanism, /unconfined/);
  });
});
