import type { EventStore } from '../events/event-store.js';
import type { GlobalHub } from '../events/global-hub.js';
import type { QueueRepo } from './queue-repo.js';
import type { SessionManager } from './session-manager.js';
import type { SessionRepo } from './session-repo.js';

export interface SessionRoutesDeps {
  manager: SessionManager;
  sessions: SessionRepo;
  queue: QueueRepo;
  events: EventStore;
  hub: GlobalHub;
  /** The HOME the agents get: a stdio MCP server listed at launch runs with it too. */
  agentHome: string;
}

/** The OpenAPI tag of the sessions' routes. */
export const tag = 'sessions';
