#!/usr/bin/env node
// Prints the compiled daemon test files of one lane, one a line: `unit` (no agent, no daemon
// process: a scripted agent at most, Fastify inject, pure functions) or `agent` (real pinned agents
// against the demo model, a daemon process, or any other child process). A file is in the agent
// lane when it names one of the ways to start those; everything else runs in the parallel unit lane.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const STARTS_PROCESSES =
  /\b(startTestDaemon|startDaemonProcess|SessionDriver|ClaudeRun|spawnAgent)\b|['"]node:child_process['"]/;

const [lane, root = 'dist/daemon'] = process.argv.slice(2);
if (lane !== 'unit' && lane !== 'agent') {
  console.error('usage: node scripts/daemon-lanes.mjs unit|agent [compiled folder]');
  process.exit(2);
}

function* testFiles(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* testFiles(path);
    else if (entry.name.endsWith('.test.js')) yield path;
  }
}

const files = [...testFiles(root)].sort();
for (const file of files) {
  const agentLane = STARTS_PROCESSES.test(readFileSync(file, 'utf8'));
  if (agentLane === (lane === 'agent')) console.log(file);
}
