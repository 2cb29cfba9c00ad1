import type { AgentEntry } from './agent.js';
import { claudeAgent } from './claude/entry.js';
import { codexAgent } from './codex/entry.js';

/**
 * Every agent Relais knows. A new agent is its folder (driver, reader, formats) and one line here;
 * the daemon's features reach it only through the port (agents/agent.ts).
 */
export const AGENTS: readonly AgentEntry[] = [claudeAgent, codexAgent];
