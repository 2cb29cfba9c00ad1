#!/usr/bin/env node
/**
 * Opens a 10,000-event conversation in headless Chromium and prints: time to tail visible, time
 * to composer usable, DOM node counts at bottom / middle / top, and the time to index the
 * conversation for the steering panel. Nothing is built here: run `npm run build` first.
 *
 * How the conversation is made: a real demo session is launched on a fresh daemon (so it is live
 * and its composer usable), then 10,000 events shaped like a `demo:steps` run are written into
 * its SQLite `events` table after its own, as the daemon would have stored them.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, requireBuilt, startBuiltDaemon } from './bench-support.mjs';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const SHOTS = process.env.BENCH_SCREENSHOTS; // a folder: also save screenshots at bottom, middle, top
const TAIL = 'TAIL MARKER: end of the seeded conversation';

requireBuilt();

const home = mkdtempSync(join(tmpdir(), 'relais-bench-'));
let browser;
let daemon;
try {
  daemon = await startBuiltDaemon(home);
  const { url, base } = daemon;
  const { key } = daemon;
  const api = async (method, path, body) => {
    const response = await fetch(base + path, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };

  const cwd = mkdtempSync(join(tmpdir(), 'relais-bench-cwd-'));
  const real = await api('POST', '/api/sessions', {
    subscription_id: 'demo',
    model: 'default',
    cwd,
    permission_mode: 'write',
    ttl_seconds: 3600,
    prompt: 'hello',
    app: 'bench',
  });

  // A copy of the real session's row under a new id, idle, with no agent behind it: the daemon
  // never writes to it, so the seeded events stay exactly as written.
  const db = new Database(join(home, 'relais.db'));
  db.pragma('busy_timeout = 5000');
  const session = { id: `ses_bench_${Date.now().toString(36)}` };
  db.exec('CREATE TEMP TABLE seeded AS SELECT * FROM sessions WHERE 0');
  db.prepare('INSERT INTO seeded SELECT * FROM sessions WHERE id = ?').run(real.id);
  db.prepare("UPDATE seeded SET id = ?, state = 'idle', pid = NULL, app = 'bench-10k'").run(
    session.id,
  );
  db.exec('INSERT INTO sessions SELECT * FROM seeded');
  const start = 0;
  const insert = db.prepare(
    'INSERT INTO events (session_id, seq, received_at_ms, source, data) VALUES (?, ?, ?, ?, ?)',
  );
  const t0 = Date.now() - EVENTS * 200;
  let seq = start;
  let tool = 0;
  let limit = EVENTS - 1; // the last one is the tail marker
  const add = (source, data) => {
    if (seq - start >= limit) return;
    seq += 1;
    insert.run(session.id, seq, t0 + (seq - start) * 200, source, JSON.stringify(data));
  };
  const assistant = (content) => ({
    type: 'assistant',
    message: { role: 'assistant', content },
    parent_tool_use_id: null,
  });
  db.transaction(() => {
    for (let turn = 1; seq - start < EVENTS - 1; turn++) {
      add('host', {
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'text', text: `demo:steps 10 (turn ${turn})` }],
        },
        parent_tool_use_id: null,
      });
      add('relais', { type: 'relais', subtype: 'state', state: 'working' });
      add('agent', {
        type: 'system',
        subtype: 'init',
        cwd,
        model: 'default',
        tools: ['Bash', 'Read', 'Edit'],
        mcp_servers: [],
        permissionMode: 'default',
      });
      for (let step = 1; step <= 10; step++) {
        const id = `toolu_bench_${++tool}`;
        const command = `sh -c 'echo step ${step}'`;
        add('agent', assistant([{ type: 'text', text: `Step **${step}** of 10 (turn ${turn}).` }]));
        add(
          'agent',
          assistant([
            {
              type: 'tool_use',
              id,
              name: 'Bash',
              input: { command, description: `Print step ${step}` },
            },
          ]),
        );
        add('agent', {
          type: 'control_request',
          request_id: `r${tool}`,
          request: {
            subtype: 'can_use_tool',
            tool_name: 'Bash',
            input: { command },
            tool_use_id: id,
          },
        });
        add('relais', {
          type: 'relais',
          subtype: 'permission_asked',
          permission_id: `p${tool}`,
          tool_name: 'Bash',
          tool_use_id: id,
        });
        add('relais', {
          type: 'relais',
          subtype: 'permission_decided',
          permission_id: `p${tool}`,
          tool_name: 'Bash',
          tool_use_id: id,
          decision: 'allowed',
          decided_by: 'console',
          scope: 'once',
          message: null,
        });
        add('host', {
          type: 'control_response',
          response: { subtype: 'success', request_id: `r${tool}`, response: { behavior: 'allow' } },
        });
        add('agent', {
          type: 'user',
          message: {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: id, content: `step ${step}`, is_error: false },
            ],
          },
          tool_use_result: { stdout: `step ${step}`, stderr: '', interrupted: false },
        });
      }
      add('agent', assistant([{ type: 'text', text: `Finished 10 steps of turn ${turn}.` }]));
      add('agent', {
        type: 'result',
        subtype: 'success',
        is_error: false,
        duration_ms: 1800,
        total_cost_usd: 0.0042,
      });
      add('relais', { type: 'relais', subtype: 'state', state: 'idle' });
    }
    limit = EVENTS;
    add('agent', assistant([{ type: 'text', text: TAIL }]));
  })();
  db.prepare('UPDATE sessions SET last_seq = ?, turns = 105 WHERE id = ?').run(seq, session.id);
  db.close();
  browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(60_000);
  await page.goto(url);
  await page.getByRole('heading', { name: 'Sessions' }).waitFor();

  const nodes = () => page.evaluate(() => document.getElementsByTagName('*').length);
  await page.goto(`${base}/sessions/${session.id}`);
  await page.getByText(TAIL).waitFor({ state: 'visible' });
  const tailMs = await page.evaluate(() => performance.now());
  const composer = page.getByRole('textbox', { name: 'Message to the agent' });
  await composer.waitFor();
  await page.waitForFunction(() => !document.querySelector('#composer-text')?.disabled);
  await composer.pressSequentially('ok');
  await page.waitForFunction(() => document.querySelector('#composer-text')?.value === 'ok');
  const composerMs = await page.evaluate(() => performance.now());
  const bottomNodes = await nodes();
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'bench-bottom.png') });
  await page.waitForFunction(
    () =>
      Number(
        /of (\d+)/.exec(document.querySelector('form.turn .muted')?.textContent ?? '')?.[1] ?? 0,
      ) >= 100,
  );
  const indexMs = await page.evaluate(() => performance.now());

  // Scroll to the top chunk by chunk, as a reader would, and sample the DOM on the way.
  const firstSeq = () =>
    page.evaluate(() =>
      Number(document.querySelector('.scroller [data-seq]')?.getAttribute('data-seq') ?? 0),
    );
  let middleNodes = null;
  let maxNodes = bottomNodes;
  const middleSeq = start + EVENTS / 2;
  const scrollStarted = Date.now();
  for (let i = 0; i < 400; i++) {
    if (await page.getByText('Start of the conversation').isVisible()) break;
    const before = await firstSeq();
    await page.evaluate(() => {
      const scroller = document.querySelector('.scroller');
      scroller.scrollTop = 0;
      scroller.dispatchEvent(new Event('scroll'));
    });
    await page.waitForFunction(
      (b) =>
        Number(document.querySelector('.scroller [data-seq]')?.getAttribute('data-seq') ?? 0) !==
          b ||
        !!document.evaluate("//*[text()='Start of the conversation']", document, null, 9, null)
          .singleNodeValue,
      before,
    );
    const count = await nodes();
    maxNodes = Math.max(maxNodes, count);
    if (middleNodes === null && (await firstSeq()) <= middleSeq) {
      middleNodes = count;
      if (SHOTS) await page.screenshot({ path: join(SHOTS, 'bench-middle.png') });
    }
  }
  const scrollSeconds = (Date.now() - scrollStarted) / 1000;
  const topNodes = await nodes();
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'bench-top.png') });

  console.log(`conversation: ${EVENTS} events, session ${session.id}`);
  console.log(`time to tail visible:       ${tailMs.toFixed(0)} ms (from navigation start)`);
  console.log(`time to composer usable:    ${composerMs.toFixed(0)} ms (typed into the composer)`);
  console.log(
    `turn/tool index built:      ${indexMs.toFixed(0)} ms (steering panel, in the background)`,
  );
  console.log(`DOM nodes at bottom:        ${bottomNodes}`);
  console.log(`DOM nodes at middle:        ${middleNodes}`);
  console.log(`DOM nodes at top:           ${topNodes}`);
  console.log(`DOM nodes max while paging: ${maxNodes}`);
  console.log(`scrolled bottom→top in:     ${scrollSeconds.toFixed(1)} s`);
} finally {
  await browser?.close();
  await daemon?.stop();
  rmSync(home, { recursive: true, force: true });
}
