import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { SessionAnnouncer } from './session-announcer.js';

describe('imported sessions announced at a bounded rate', () => {
  it('announces each changed session once per window, after the window', async () => {
    const told: string[] = [];
    const announcer = new SessionAnnouncer((id) => told.push(id), 30);
    for (let i = 0; i < 100; i++) announcer.changedSession(i % 2 ? 'ses_a' : 'ses_b');
    assert.deepEqual(told, [], 'nothing before the window ends');
    await sleep(80);
    assert.deepEqual(told.sort(), ['ses_a', 'ses_b']);
    announcer.changedSession('ses_a');
    await sleep(80);
    assert.deepEqual(told.sort(), ['ses_a', 'ses_a', 'ses_b'], 'a later change is told again');
  });

  it('flush tells what is pending at once and leaves nothing for the timer', async () => {
    const told: string[] = [];
    const announcer = new SessionAnnouncer((id) => told.push(id), 30);
    announcer.changedSession('ses_a');
    announcer.flush();
    assert.deepEqual(told, ['ses_a']);
    await sleep(80);
    assert.deepEqual(told, ['ses_a']);
  });

  it('close drops what is pending', async () => {
    const told: string[] = [];
    const announcer = new SessionAnnouncer((id) => told.push(id), 30);
    announcer.changedSession('ses_a');
    announcer.close();
    await sleep(80);
    assert.deepEqual(told, []);
  });

  it("hears nothing once closed (the importer's last flush at shutdown changes sessions too)", async () => {
    const told: string[] = [];
    const announcer = new SessionAnnouncer((id) => told.push(id), 30);
    announcer.close();
    announcer.changedSession('ses_a');
    await sleep(80);
    announcer.flush();
    assert.deepEqual(told, []);
  });
});
