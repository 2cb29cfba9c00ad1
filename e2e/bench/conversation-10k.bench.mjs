#!/usr/bin/env node
/**
 * Opens conversations of 20, 2,000 and 10,000 events (BENCH_SIZES) in headless Chromium, each run in
 * a fresh browser (cold cache), BENCH_RUNS times (default 5), interleaved, and prints the medians
 * beside those of the previous main (conversation-baseline.json, next to this file):
 * navigation → last message on screen, → composer on screen, → composer took a keystroke (keys are
 * typed from the start and the composer focused the frame it shows, as a person would; the figure
 * is when the page handled the first key's input event: see conversation-open.mjs), JS and API
 * bytes transferred,
 * DOM elements at the bottom and at the top of the history, JS heap after GC, and the time to reach
 * the first event by scrolling up from the bottom: the scrollbar's thumb dragged to the top, again
 * until the first event shows, and then (after Home and back) the view moved to the top of the rows
 * drawn, again and again ("row by row": the way up chunk by chunk, whatever the scrollbar spans). Nothing is built here: run `npm run build` first
 * (BENCH_DIST=<folder> measures another build of this checkout, e.g. a copy of main's `dist`).
 * BENCH_COMPARE=<folder> opens that build's console too, served by a daemon of its own with the
 * same conversations, run by run in turn with this one (each first in turn), and prints both: on
 * this shared machine the load drifts by a factor of two within an hour, so only builds measured
 * side by side compare. BENCH_SAVE_BASELINE=1 writes this run's medians as the new baseline.
 * BENCH_OPEN_ONLY=1 measures the open alone (no scroll to the first event); BENCH_TRACE=<folder>
 * writes a Chromium trace of each open there (`node e2e/bench/long-tasks.mjs <trace>` lists its
 * long tasks and what ran in them; the tracing slows the page, so its figures are not comparable).
 * BENCH_CPU_SLOWDOWN=N slows the page's CPU N times (Chromium's throttling): the tasks a loaded
 * machine stretches past 50 ms, found on a quiet one, the same in every run.
 * BENCH_RESULT_LINES=N makes every tool result a file read of N lines (1,500 is about 120 kB, twice in
 * its event as Claude Code writes it): the weight of a real transcript rather than one-line results.
 * BENCH_REPLY_LINES=N makes every step's reply a Markdown list of N items (a bold word and a code span
 * each): rows that render tens of elements, where the window's element budget binds.
 * Once the composer took its first key the benchmark presses Enter until a message is POSTed: the
 * time the daemon answered it (409 here: a seeded copy has no agent; the network stack's timing of
 * the answer, not when the page heard it, which waits for its main thread), and how many were
 * POSTed.
 * Each live conversation has a pending Bash prompt (BENCH_PROMPT=0: none): when its card, the
 * first paint's or the console's, is on screen, and when its buttons are armed. Long tasks (the
 * Long Tasks API) from navigation to 2 s after the console's last message: the blocking time
 * (what each passes 50 ms by), their sum and the longest.
 * BENCH_ORIGIN=imported opens imported conversations instead (a Claude Code transcript read by the
 * daemon's import; no composer, so no keystroke figure), to compare with the native baseline;
 * BENCH_ORIGIN=imported-codex the same with Codex rollouts (the second agent's timeline).
 *
 * How a conversation is made: a real demo session is launched on a fresh daemon (so the composer
 * talks to a live session), then copies of its row get seeded events (seed-conversation.mjs).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CONSOLE, ROOT, launchChromium, requireBuilt, startBuiltDaemon } from './bench-support.mjs';
import { measureOpen } from './conversation-open.mjs';
import { seedConversation, seedPrompt } from './seed-conversation.mjs';
import { seedImported } from './seed-imported.mjs';

const SIZES = (process.env.BENCH_SIZES ?? '20,2000,10000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BASELINE = join(import.meta.dirname, 'conversation-baseline.json');
const TAIL = 'TAIL MARKER: end of the seeded conversation';
const ORIGIN = process.env.BENCH_ORIGIN;
const IMPORTED = ORIGIN === 'imported' || ORIGIN === 'imported-codex';
const RESULT_LINES = Number(process.env.BENCH_RESULT_LINES ?? 0);
const REPLY_LINES = Number(process.env.BENCH_REPLY_LINES ?? 0);
/** A pending prompt in each live conversation (BENCH_PROMPT=0: none), to time when it can be answered. */
const PROMPT = !IMPORTED && process.env.BENCH_PROMPT !== '0';
/** A folder for a trace of each open (e2e/bench/long-tasks.mjs reads them). */
const TRACE = process.env.BENCH_TRACE;
let traced = 0;
/** BENCH_OPEN_ONLY=1: the open's figures only (no scroll to the first event). */
const OPEN_ONLY = !!process.env.BENCH_OPEN_ONLY;
/** Another build's folder (e.g. a copy of main's `dist`): its console is opened in turn with this one's. */
const COMPARE = process.env.BENCH_COMPARE;

/** What is printed, in order: [key, label, unit]. */
const METRICS = [
  ['firstPaintMs', 'navigation → last message, first paint', 'ms'],
  ['tailMs', 'navigation → last message', 'ms'],
  ['composerMs', 'navigation → composer on screen', 'ms'],
  ['keystrokeMs', 'navigation → composer took a key', 'ms'],
  ['messageMs', 'navigation → message at the daemon (Enter)', 'ms'],
  ['messageHeardMs', '  the page heard its answer', 'ms'],
  ['messageSentMs', 'navigation → message POSTed by the page', 'ms'],
  ['messageQueuedMs', '  of which waiting for a connection', 'ms'],
  ['messageServerMs', '  of which waiting for the answer', 'ms'],
  ['messagePosts', 'messages POSTed for one typed', ''],
  ['promptMs', 'navigation → prompt on screen', 'ms'],
  ['answerableMs', 'navigation → prompt answerable (armed)', 'ms'],
  ['blockingMs', 'main thread blocked opening (TBT)', 'ms'],
  ['longTasksMs', 'long tasks opening, in all', 'ms'],
  ['longestTaskMs', 'longest task opening', 'ms'],
  ['longTasks', 'tasks over 50 ms opening', ''],
  ['jsBytes', 'JS transferred to open', 'kB'],
  ['jsFiles', 'JS files to open', ''],
  ['jsCompressed', 'JS compressed (share of files)', '%'],
  ['apiBytesOpen', 'API bytes to open (+2 s)', 'kB'],
  ['apiRequestsOpen', 'API requests to open (+2 s)', ''],
  ['domBottom', 'DOM elements at bottom', ''],
  ['heapBottomMB', 'JS heap after GC at bottom', 'MB'],
  ['topMs', 'bottom → first event (scrolling up)', 'ms'],
  ['apiBytesTop', 'API bytes bottom → top', 'kB'],
  ['apiRequestsTop', 'API requests bottom → top', ''],
  ['domTop', 'DOM elements at top', ''],
  ['domMax', 'DOM elements max while scrolling', ''],
  ['heapTopMB', 'JS heap after GC at top', 'MB'],
  ['heapMaxMB', 'JS heap max while scrolling (no GC)', 'MB'],
  ['homeMs', 'bottom → first event (Home key)', 'ms'],
  ['walkMs', 'bottom → first event (row by row)', 'ms'],
];

requireBuilt();
if ((RESULT_LINES || REPLY_LINES) && process.env.BENCH_SAVE_BASELINE)
  throw new Error(
    'the baseline is for one-line results: BENCH_SAVE_BASELINE without BENCH_RESULT_LINES',
  );

/** One console served by its own daemon and home, with the same conversations seeded in each. */
const builds = [{ label: 'this build', consoleDir: CONSOLE }];
if (COMPARE) {
  const consoleDir = resolve(ROOT, COMPARE, 'console/browser');
  // A build of one language has index.html at the top; a build per language, in en/.
  if (
    !existsSync(join(consoleDir, 'index.html')) &&
    !existsSync(join(consoleDir, 'en', 'index.html'))
  )
    throw new Error(`${consoleDir}: no built console`);
  builds.push({ label: COMPARE, consoleDir });
}

try {
  for (const build of builds) Object.assign(build, await prepare(build.consoleDir));
  const results = new Map(SIZES.map((size) => [size, builds.map(() => [])]));
  for (let run = 1; run <= RUNS; run++) {
    for (const size of SIZES) {
      // Interleaved, each build first in turn: a machine's load drifts within a run.
      const order = builds.map((_, i) => i);
      if (run % 2 === 0) order.reverse();
      for (const i of order) {
        const { base, key, sessions, label } = builds[i];
        const figures = await openOnce(`${base}/sessions/${sessions.get(size)}#key=${key}`);
        results.get(size)[i].push(figures);
        process.stderr.write(`run ${run}, ${size} events, ${label}: ${JSON.stringify(figures)}\n`);
      }
    }
  }
  report(results);
} finally {
  for (const build of builds) {
    await build.daemon?.stop();
    for (const dir of [build.home, build.cwd])
      if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/** A daemon serving `consoleDir` on a fresh home, and a conversation of each size in it. */
async function prepare(consoleDir) {
  const home = mkdtempSync(join(tmpdir(), 'relais-bench-'));
  const daemon = await startBuiltDaemon(home, consoleDir);
  const { base, key } = daemon;
  const cwd = mkdtempSync(join(tmpdir(), 'relais-bench-cwd-'));
  const real = await launchDemo(base, key, cwd);
  const sessions = new Map();
  for (const [n, size] of SIZES.entries()) {
    if (IMPORTED) {
      const agent = ORIGIN === 'imported-codex' ? 'codex' : 'claude';
      const imported = await seedImported(base, key, { count: size, tail: TAIL, n, agent });
      process.stderr.write(`imported conversation of ${imported.events} events for ${size}\n`);
      sessions.set(size, imported.id);
      continue;
    }
    const sessionId = `ses_bench_${size}_${Date.now().toString(36)}`;
    seedConversation(join(home, 'relais.db'), {
      realId: real.id,
      sessionId,
      count: size,
      cwd,
      tail: TAIL,
      resultLines: RESULT_LINES,
      replyLines: REPLY_LINES,
    });
    if (PROMPT) seedPrompt(join(home, 'relais.db'), sessionId);
    sessions.set(size, sessionId);
  }
  return { home, cwd, daemon, base, key, sessions };
}

/** One open in a browser of its own (cold cache, nothing shared with the other runs). */
async function openOnce(url) {
  const browser = await launchChromium();
  try {
    const trace = TRACE ? join(TRACE, `open-${++traced}.json`) : null;
    const options = { composer: !IMPORTED, prompt: PROMPT, trace, openOnly: OPEN_ONLY };
    const figures = await measureOpen(browser, { url, tail: TAIL, ...options });
    if (trace) process.stderr.write(`trace: ${trace}\n`);
    return figures;
  } finally {
    await browser.close();
  }
}

async function launchDemo(base, key, cwd) {
  const response = await fetch(`${base}/api/sessions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      subscription_id: 'demo',
      model: 'default',
      cwd,
      permission_mode: 'write',
      ttl_seconds: 3600,
      prompt: 'hello',
      app: 'bench',
    }),
  });
  if (!response.ok) throw new Error(`launch: ${response.status} ${await response.text()}`);
  return response.json();
}

function median(values) {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b);
  if (!sorted.length) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function readBaseline() {
  try {
    return JSON.parse(readFileSync(BASELINE, 'utf8'));
  } catch {
    return null;
  }
}

function show(value, unit) {
  if (value === null || value === undefined) return '—';
  if (unit === 'kB') return `${(value / 1000).toFixed(1)} kB`;
  if (unit === 'MB') return `${value.toFixed(1)} MB`;
  if (unit === 'ms') return `${Math.round(value)} ms`;
  if (unit === '%') return `${Math.round(value)} %`;
  return String(Math.round(value));
}

function report(results) {
  // The baseline holds one-line results: beside heavy ones it would only mislead.
  const baseline = RESULT_LINES || REPLY_LINES ? null : readBaseline();
  const medians = (runs) =>
    Object.fromEntries(METRICS.map(([name]) => [name, median(runs.map((r) => r[name]))]));
  const old = baseline ? ` | main ${baseline.commit}` : '';
  const columns = builds.length > 1 ? ` (${builds.map((b) => b.label).join(' | ')})` : '';
  const saved = {};
  for (const [size, perBuild] of results) {
    const [mine, ...others] = perBuild.map(medians);
    saved[size] = mine;
    const kind = `${IMPORTED ? `${ORIGIN} ` : ''}${RESULT_LINES ? `${RESULT_LINES}-line results, ` : ''}`;
    console.log(
      `\n${size} events, ${kind}medians of ${RUNS} runs (fresh browser each)${columns}${old}`,
    );
    for (const [name, label, unit] of METRICS) {
      const cells = [mine, ...others].map((m) => show(m[name], unit).padStart(10)).join(' |');
      const before = baseline ? ` | ${show(baseline?.sizes?.[size]?.[name], unit)}` : '';
      console.log(`  ${label.padEnd(38)} ${cells}${before}`);
    }
  }
  if (process.env.BENCH_SAVE_BASELINE) {
    const commit = process.env.BENCH_COMMIT ?? 'unknown';
    writeFileSync(
      BASELINE,
      JSON.stringify(
        { commit, measured: new Date().toISOString(), runs: RUNS, sizes: saved },
        null,
        2,
      ) + '\n',
    );
    console.log(`\nbaseline written: ${BASELINE}`);
  }
}
