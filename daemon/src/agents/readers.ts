import type { StoredEvent } from '../events/event-store.js';
import type { SessionMeta, TurnRecord } from './turn-record.js';
import type { AgentReader, TurnCounter } from './agent.js';
import { AGENTS } from './catalog.js';

/** Reads nothing: the events of an agent kind this daemon does not know. */
const silentReader: AgentReader = {
  quotaReadings: () => [],
  outline: () => null,
  text: () => [],
  turnCounter: (_sessionId: string, _meta: SessionMeta): TurnCounter => ({
    setMeta: () => undefined,
    hear: (_event: StoredEvent): TurnRecord | null => null,
    permission: () => undefined,
    abandon: () => null,
  }),
};

const READERS = new Map(AGENTS.map((agent) => [agent.kind, agent.reader]));

/** The stateless reader of an agent kind's stored events (usage, quota and outline readings). */
export function agentReader(kind: string): AgentReader {
  return READERS.get(kind) ?? silentReader;
}
