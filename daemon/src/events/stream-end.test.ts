import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Session, SessionEvent } from '../../../contract/api.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

interface Line {
  type: string;
  event?: SessionEvent;
  session?: Session;
}

interface Reading {
  lines: Line[];
  /** True when the server ended the answer; false when the reader gave up waiting. */
  ended: Promise<boolean>;
}

/** Opens a session stream and collects its lines until the server ends it or `giveUpMs` passes. */
async function openStream(
  daemon: TestDaemon,
  id: string,
  after: number,
  giveUpMs: number,
): Promise<Reading> {
  const controller = new AbortController();
  const response = await fetch(`${daemon.base}/api/sessions/${id}/stream?after=${after}`, {
    headers: { authorization: `Bearer ${daemon.key}` },
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  const lines: Line[] = [];
  const timer = setTimeout(() => controller.abort(), giveUpMs);
  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          lines.push(JSON.parse(buffer.slice(0, newline)) as Line);
          buffer = buffer.slice(newline + 1);
        }
      }
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  })();
  return { lines, ended };
}

const isEnd = (line: Line): boolean =>
  line.type === 'event' &&
  line.event?.source === 'relais' &&
  (line.event.data as { subtype?: string; state?: string }).subtype === 'state' &&
  (line.event.data as { state?: string }).state === 'ended';

describe('the live stream of a session ends with the session', { timeout: 120_000 }, () => {
  let daemon: TestDaemon;
  before(async () => {
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
  });

  const checkClosing = (lines: Line[]): void => {
    const endAt = lines.findIndex(isEnd);
    assert.ok(endAt >= 0, 'the end event was sent');
    const last = lines[lines.length - 1]!;
    assert.equal(last.type, 'session', 'the final state comes last');
    assert.equal(last.session!.state, 'ended');
    assert.ok(
      lines.slice(endAt + 1).every((line) => line.type === 'session'),
      'nothing but the final state after the end',
    );
  };

  it('a session that ends while streaming: the stream closes once the end is sent', async () => {
    const s = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      prompt: 'hello',
    });
    await s.waitState('idle');
    const reading = await openStream(daemon, s.id, 0, 20_000);
    await daemon.call('POST', `/api/sessions/${s.id}/stop`);
    assert.equal(await reading.ended, true, 'the server ended the stream');
    checkClosing(reading.lines);
    const seqs = reading.lines.filter((l) => l.type === 'event').map((l) => l.event!.seq);
    assert.deepEqual(
      seqs,
      seqs.map((_, i) => i + 1),
      'every event, once, in order',
    );
  });

  it('a session already ended at connect: catch-up, end, final state, close', async () => {
    const s = await SessionDriver.launch(daemon, {
      cwd: workdir(),
    });
    await s.waitState('idle');
    await daemon.call('POST', `/api/sessions/${s.id}/stop`);
    const ended = await s.waitState('ended');
    const fromStart = await openStream(daemon, s.id, 0, 5_000);
    assert.equal(await fromStart.ended, true, 'the server ended the stream');
    checkClosing(fromStart.lines);
    const fromEnd = await openStream(daemon, s.id, ended.last_seq, 5_000);
    assert.equal(await fromEnd.ended, true, 'the server ended a stream with nothing left to send');
    assert.ok(fromEnd.lines.length > 0);
    assert.ok(
      fromEnd.lines.every((l) => l.type === 'session' && l.session?.state === 'ended'),
      'only the session as it ended',
    );
  });
});
