#!/usr/bin/env node
/**
 * Lists the main thread's tasks over a threshold (default 30 ms) in a Chromium trace written by
 * `bench:conversation` with BENCH_TRACE=<folder>: for each, when it started (ms after navigation),
 * how long it ran, what the browser did in it (script evaluated, timers, frames, layout) and the
 * functions and scripts the CPU profile sampled most in it (self time).
 * --inclusive adds the functions with the most time spent in them and in what they called (to
 * see which component or callback a task was for; build with NG_BUILD_MANGLE=0 for names).
 * Usage: node e2e/bench/long-tasks.mjs <trace.json>... [--over=30] [--inclusive]
 */
import { readFileSync } from 'node:fs';

const files = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const over = Number(process.argv.find((arg) => arg.startsWith('--over='))?.slice(7) ?? 30);
const inclusive = process.argv.includes('--inclusive');

function longTasks(trace, overMs) {
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const main = rendererMain(events);
  if (!main) return ['no renderer main thread in this trace'];
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const start = navigationStart(events, main);
  const samples = cpuSamples(events, main);
  const tasks = onMain.filter(
    (e) => e.ph === 'X' && e.name === 'RunTask' && e.dur >= overMs * 1000,
  );
  return tasks.map((task) => {
    const end = task.ts + task.dur;
    const inside = onMain.filter(
      (e) => e.ph === 'X' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end,
    );
    const what = topBy(
      inside.filter((e) => WHAT.has(e.name) && e !== task),
      (e) => `${e.name}${detail(e)}`,
      (e) => e.dur,
    );
    const sampled = samples.filter((s) => s.ts >= task.ts && s.ts < end);
    const functions = topBy(
      sampled,
      (s) => s.name,
      (s) => s.ms * 1000,
    );
    const scripts = topBy(
      sampled,
      (s) => s.url,
      (s) => s.ms * 1000,
    );
    const callers = topBy(
      sampled.flatMap((s) => s.stack.map((name) => ({ name, ms: s.ms }))),
      (s) => s.name,
      (s) => s.ms * 1000,
      16,
    );
    return [
      `${ms(task.ts - start).padStart(6)} ms  ${ms(task.dur).padStart(4)} ms`,
      `    did: ${what}`,
      `    functions: ${functions}`,
      `    scripts: ${scripts}`,
      ...(inclusive ? [`    inclusive: ${callers}`] : []),
    ].join('\n');
  });
}

/** Trace events that say what a task ran. */
const WHAT = new Set([
  'EvaluateScript',
  'v8.evaluateModule',
  'v8.compileModule',
  'v8.compile',
  'FunctionCall',
  'TimerFire',
  'FireAnimationFrame',
  'EventDispatch',
  'Layout',
  'UpdateLayoutTree',
  'Paint',
  'ParseHTML',
  'RunMicrotasks',
  'FireIdleCallback',
  'v8.produceModuleCache',
  'MajorGC',
  'MinorGC',
]);

function detail(event) {
  const data = event.args?.data ?? event.args?.beginData ?? {};
  const url = data.url ?? data.scriptName ?? event.args?.fileName ?? '';
  const name = data.functionName ? ` ${data.functionName}` : '';
  const type = data.type ? ` ${data.type}` : '';
  return `${type}${name}${url ? ` ${url.split('/').pop()}` : ''}`;
}

/** The named items with the most total, largest first: `name 12.3, other 4.5`. */
function topBy(items, key, weight, count = 6) {
  const totals = new Map();
  for (const item of items)
    totals.set(key(item), (totals.get(key(item)) ?? 0) + (weight(item) ?? 0));
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, total]) => `${name || '(none)'} ${ms(total)}`)
    .join(', ');
}

const ms = (micros) => (micros / 1000).toFixed(1);

/** The renderer's main thread of the page measured: the one that parsed its HTML. */
function rendererMain(events) {
  const names = events.filter((e) => e.ph === 'M' && e.name === 'thread_name');
  const mains = names.filter((e) => e.args?.name === 'CrRendererMain');
  const busy = (m) =>
    events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'ParseHTML').length;
  return mains.sort((a, b) => busy(b) - busy(a))[0];
}

function navigationStart(events, main) {
  const marks = events.filter(
    (e) => e.pid === main.pid && (e.name === 'navigationStart' || e.name === 'markAsMainFrame'),
  );
  return marks.length
    ? Math.min(...marks.map((e) => e.ts))
    : Math.min(...events.map((e) => e.ts || Infinity));
}

/**
 * The CPU profile's samples on the page's main thread (a worker's profile is another one, in the
 * same process): each with its function, script and weight.
 */
function cpuSamples(events, main) {
  const profile = events.find(
    (e) => e.name === 'Profile' && e.pid === main.pid && e.tid === main.tid,
  );
  if (!profile) return [];
  const nodes = new Map();
  const samples = [];
  let time = 0;
  for (const event of events.filter((e) => e.pid === main.pid && e.id === profile.id)) {
    if (event.name === 'Profile') time = event.args?.data?.startTime ?? time;
    if (event.name !== 'ProfileChunk') continue;
    const profile = event.args?.data?.cpuProfile ?? {};
    for (const node of profile.nodes ?? [])
      nodes.set(node.id, { ...(node.callFrame ?? {}), parent: node.parent });
    const deltas = event.args?.data?.timeDeltas ?? [];
    (profile.samples ?? []).forEach((id, i) => {
      time += deltas[i] ?? 0;
      const frame = nodes.get(id) ?? {};
      samples.push({
        ts: time,
        name: frameName(frame),
        url: (frame.url ?? '').split('/').pop(),
        stack: stackOf(nodes, id),
        ms: 0,
      });
    });
  }
  samples.forEach(
    (sample, i) =>
      (sample.ms = Math.max(0, ((samples[i + 1]?.ts ?? sample.ts) - sample.ts) / 1000)),
  );
  return samples;
}

function frameName(frame) {
  return `${frame.functionName || '(anonymous)'}@${(frame.url ?? '').split('/').pop()}:${frame.lineNumber ?? ''}`;
}

/** The distinct functions on a sample's stack, the sampled one and its callers. */
function stackOf(nodes, id) {
  const names = new Set();
  for (let node = nodes.get(id); node; node = nodes.get(node.parent)) {
    if (node.url) names.add(frameName(node));
  }
  return [...names];
}

for (const file of files) {
  console.log(`\n${file}`);
  for (const line of longTasks(JSON.parse(readFileSync(file, 'utf8')), over)) console.log(line);
}
