import type { StoredEvent } from '../events/event-store.js';
import type { SessionMeta, TurnRecord } from './turn-record.js';
import type { AgentReader, TurnCounter } from './agent.js';
import { claudeReader } from './claude/claude-reader.js';
import { codexReader } from './codex/codex-reader.js';

/** Reads nothing: the events of an agent kind this daemon does not know. */
const silentReader: AgentReader = {
  quotaReadings: () => [],
  outline: () => null,
  turnCounter: (_sessionId: string, _meta: SessionMeta): TurnCounter => ({
    setMeta: () => undefined,
    hear: (_event: StoredEvent): TurnRecord | null => null,
    permission: () => undefined,
    abandon: () => null,
  }),
};

const READERS: Record<string, AgentReader> = { claude: claudeReader, codex: codexReader };

/** The stateless reader of an agent kind's stored events (usage, quota and outline readings). */
export function agentReader(kind: string): AgentReader {
  return READERS[kind] ?? silentReader;
}
