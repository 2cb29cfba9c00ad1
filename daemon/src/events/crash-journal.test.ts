import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { startDemoModel } from '../../../fakes/demo-model/server.js';
import { allEvents } from '../testing/all-events.js';
import { startDaemonProcess, type DaemonProcess } from '../testing/daemon-process.js';
import { openNdjsonClient } from '../testing/ndjson-client.js';
import { waitFor } from '../testing/harness.js';

const ROUNDS = Number(process.env['RELAIS_CRASH_ROUNDS'] ?? 20);
/** Independent data folders crashed side by side, to keep the run short. */
const LANES = 2;
/** A busy turn: a tool call after another, each with its permission, result and answer. */
const BUSY_PROMPT = 'demo:steps 40';
/** Queued behind it: a chatty command, a thinking turn, a plain one. */
const QUEUED = ['demo:bash seq 1 20000', 'demo:think', 'hello'];

interface Shown {
  /** seq → the event as a client received it. */
  events: Map<number, unknown>;
  /** The highest last_seq a session line announced. */
  lastSeq: number;
}

interface Loss {
  missing: number;
  reused: number;
  announced: number;
  gaps: number;
}

const random = (below: number): number => Math.floor(Math.random() * below);

/** Compares what clients were shown of a session with what the restarted daemon stored. */
async function compare(daemon: DaemonProcess, sessionId: string, shown: Shown): Promise<Loss> {
  const stored = await allEvents(daemon, sessionId);
  const bySeq = new Map(stored.map((event) => [event.seq as number, event]));
  const loss: Loss = { missing: 0, reused: 0, announced: 0, gaps: 0 };
  for (const [seq, event] of shown.events) {
    const kept = bySeq.get(seq);
    if (kept === undefined) loss.missing++;
    else if (!isDeepStrictEqual(kept, event)) loss.reused++;
  }
  const last = stored.at(-1)?.seq ?? 0;
  if (shown.lastSeq > last) loss.announced++;
  stored.forEach((event, i) => (event.seq === i + 1 ? undefined : loss.gaps++));
  return loss;
}

/** A client that resumes from a random seq gets exactly the stored events after it. */
async function checkResume(daemon: DaemonProcess, sessionId: string): Promise<void> {
  const stored = await allEvents(daemon, sessionId);
  if (stored.length === 0) return;
  const after = random(stored.length);
  const last = stored.at(-1)!.seq;
  const client = await openNdjsonClient(
    daemon.base,
    daemon.key,
    `/api/sessions/${sessionId}/stream?after=${after}`,
  );
  const received = (): any[] =>
    client.lines.filter((l) => l.value.type === 'event').map((l) => l.value.event);
  await waitFor(`events up to ${last}`, () => received().some((e) => e.seq >= last), 10_000);
  client.close();
  assert.deepEqual(
    received().map((e) => e.seq),
    stored.slice(after).map((e) => e.seq),
    `resume of ${sessionId} after ${after}`,
  );
  assert.deepEqual(received(), stored.slice(after));
}

describe('the journal across kill -9 of the daemon', { timeout: 600_000 }, () => {
  it('every event a live client was shown is stored identically, and no seq is reused', async (t) => {
    const model = await startDemoModel({ delayScale: 0.05 });
    try {
      const perLane = Math.ceil(ROUNDS / LANES);
      const lanes = await Promise.all(
        Array.from({ length: LANES }, () => crashLane(model.url, perLane)),
      );
      const lossy = lanes.flatMap((lane) => lane.lossyRounds);
      t.diagnostic(`${lossy.length} of ${perLane * LANES} rounds lost something`);
      assert.deepEqual(lossy, []);
      assert.deepEqual(
        lanes.flatMap((lane) => lane.laterDamage),
        [],
        'later rounds changed what earlier ones stored',
      );
    } finally {
      await model.close();
    }
  });
});

/**
 * One data folder, killed and restarted `rounds` times. After each restart, what the clients of
 * the killed daemon were shown is compared with what is stored.
 */
async function crashLane(
  modelUrl: string,
  rounds: number,
): Promise<{ lossyRounds: string[]; laterDamage: string[] }> {
  const home = mkdtempSync(join(tmpdir(), 'relais-crash-'));
  const cwd = mkdtempSync(join(tmpdir(), 'relais-crash-cwd-'));
  const shown = new Map<string, Shown>();
  const lossyRounds: string[] = [];
  const laterDamage: string[] = [];
  // The demo subscription's quota reading would soon refuse launches: admission is not tested here.
  const env = { RELAIS_DEMO_MODEL_URL: modelUrl, RELAIS_ADMISSION_THRESHOLD: '1000000' };
  let daemon = await startDaemonProcess(home, env);
  try {
    for (let round = 1; round <= rounds; round++) {
      const id = await crashRound(daemon, cwd, shown);
      daemon = await startDaemonProcess(home, env);
      const loss = await compare(daemon, id, shown.get(id)!);
      await checkResume(daemon, id);
      if (!isDeepStrictEqual(loss, noLoss()))
        lossyRounds.push(`round ${round}: ${JSON.stringify(loss)}`);
    }
    // Later rounds must not have disturbed what earlier rounds stored.
    for (const [id, seen] of shown) {
      const loss = await compare(daemon, id, seen);
      if (!isDeepStrictEqual(loss, noLoss())) laterDamage.push(`${id}: ${JSON.stringify(loss)}`);
    }
  } finally {
    await daemon.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
  return { lossyRounds, laterDamage };
}

const noLoss = (): Loss => ({ missing: 0, reused: 0, announced: 0, gaps: 0 });

/**
 * A session works through many tool calls while a console-like global client (which allows every
 * prompt) and a client of the session's stream watch; more instructions wait in its queue. The
 * daemon is killed after a random number of shown events, at once or a few milliseconds later.
 * Returns the id of the session.
 */
async function crashRound(
  daemon: DaemonProcess,
  cwd: string,
  shown: Map<string, Shown>,
): Promise<string> {
  const killAfter = 1 + random(40);
  const delay = Math.random() < 0.7 ? 0 : 1 + random(15);
  let seen = 0;
  let killing = false;
  const kill = (): void => {
    if (killing) return;
    killing = true;
    if (delay === 0) daemon.child.kill('SIGKILL');
    else setTimeout(() => daemon.child.kill('SIGKILL'), delay);
  };
  const record = (value: any): void => {
    if (value.type === 'session') {
      const entry = shownFor(shown, value.session.id);
      entry.lastSeq = Math.max(entry.lastSeq, value.session.last_seq);
    }
    if (value.type === 'permission' && value.permission.state === 'pending')
      daemon
        .call('POST', `/api/permissions/${value.permission.id}/decision`, { decision: 'allow' })
        .catch(() => undefined);
  };
  const global = await openNdjsonClient(daemon.base, daemon.key, '/api/stream', record);
  const launched = await daemon.call('POST', '/api/sessions', {
    subscription_id: 'demo',
    model: 'demo-sonnet',
    app: 'tests',
    cwd,
    prompt: BUSY_PROMPT,
  });
  assert.equal(launched.status, 201, launched.text);
  const id = launched.body.id as string;
  const entry = shownFor(shown, id);
  const stream = await openNdjsonClient(
    daemon.base,
    daemon.key,
    `/api/sessions/${id}/stream?after=0`,
    (value) => {
      record(value);
      if (value.type !== 'event') return;
      entry.events.set(value.event.seq, value.event);
      if (++seen >= killAfter) kill();
    },
  );
  for (const text of QUEUED)
    await daemon.call('POST', `/api/sessions/${id}/messages`, { text }).catch(() => undefined);
  // A session still starting when the time is up is killed then: that is a moment too.
  const late = setTimeout(kill, 6_000);
  if (daemon.child.exitCode === null && daemon.child.signalCode === null)
    await new Promise((resolve) => daemon.child.once('exit', resolve));
  clearTimeout(late);
  await Promise.all([global.ended, stream.ended]);
  await daemon.stop();
  return id;
}

function shownFor(shown: Map<string, Shown>, id: string): Shown {
  let entry = shown.get(id);
  if (!entry) shown.set(id, (entry = { events: new Map(), lastSeq: 0 }));
  return entry;
}
