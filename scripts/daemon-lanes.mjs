#!/usr/bin/env node
// Prints the compiled daemon test files of one lane, one a line: `unit` (no agent, no daemon
// process: a scripted agent at most, Fastify inject, pure functions) or `agent` (real pinned agents
// against the demo model, a daemon process, or any other child process). A file is in the agent
// lane when it names one of the ways to start those; everything else runs in the parallel unit lane.
// The agent lane splits in two sub-lanes run side by side (scripts/agent-lane.sh): `agent-heavy`,
// the files that keep agents busy for minutes, and `agent-rest`, everything else, one file at a time.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const STARTS_PROCESSES =
  /\b(startTestDaemon|startDaemonProcess|SessionDriver|ClaudeRun|spawnAgent)\b|['"]node:child_process['"]/;

// Measured serially (load 7 to 8 on 2 cores): 285 s and 58 s of the lane's 790 s of tests, each
// busy with real agents the whole time (400 turns; daemons killed and restarted).
const HEAVY = ['isolation/prompt-count-live.test.js', 'events/crash-journal.test.js'];

const LANES = ['unit', 'agent', 'agent-heavy', 'agent-rest'];
const [lane, root = 'dist/daemon'] = process.argv.slice(2);
if (!LANES.includes(lane)) {
  console.error(`usage: node scripts/daemon-lanes.mjs ${LANES.join('|')} [compiled folder]`);
  process.exit(2);
}

function* testFiles(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* testFiles(path);
    else if (entry.name.endsWith('.test.js')) yield path;
  }
}

const isHeavy = (file) => HEAVY.some((name) => file.endsWith(`/daemon/src/${name}`));

function laneOf(file) {
  if (!STARTS_PROCESSES.test(readFileSync(file, 'utf8'))) return 'unit';
  return isHeavy(file) ? 'agent-heavy' : 'agent-rest';
}

const files = [...testFiles(root)].sort();
for (const file of files) {
  const fileLane = laneOf(file);
  if (fileLane === lane || (lane === 'agent' && fileLane !== 'unit')) console.log(file);
}
