import type { AgentEntry } from '../agent.js';
import { CODEX_PACKAGE, pinnedCodexVersion } from './binary.js';
import { CodexDriver } from './codex-driver.js';
import { codexReader } from './codex-reader.js';
import { codexRollouts } from './rollouts.js';

/** Codex through its app server (JSON-RPC over pipes), as the agent catalog lists it. */
export const codexAgent: AgentEntry = {
  kind: 'codex',
  reader: codexReader,
  transcripts: codexRollouts,
  pinned: { package: CODEX_PACKAGE, version: pinnedCodexVersion },
  driver: (context) => new CodexDriver(context.demoModelUrl, context.agentHome, context.planner),
};
