import type { AgentEntry } from '../agent.js';
import { CLAUDE_PACKAGE, pinnedClaudeVersion } from './binary.js';
import { ClaudeDriver } from './claude-agent.js';
import { claudeReader } from './claude-reader.js';
import { ClaudeLauncher } from './launcher.js';
import { claudeTranscripts } from './transcripts.js';

/** Claude Code (stream-json over pipes), as the agent catalog lists it. */
export const claudeAgent: AgentEntry = {
  kind: 'claude',
  reader: claudeReader,
  transcripts: claudeTranscripts,
  pinned: { package: CLAUDE_PACKAGE, version: pinnedClaudeVersion },
  driver: (context) =>
    new ClaudeDriver(
      new ClaudeLauncher(context.demoModelUrl, context.agentHome, context.planner),
      context.gates,
    ),
};
