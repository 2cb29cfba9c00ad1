import { randomUUID } from 'node:crypto';
import type { AgentHost } from '../agents/agent.js';
import type { NetworkAsk } from './network-gate.js';

/** A new destination of a command becomes a permission request of the session (tool `Network`). */
export function networkAsk(host: AgentHost): NetworkAsk {
  return (name, port) =>
    new Promise((resolve) =>
      host.permissions.ask(
        {
          requestId: `network-${randomUUID()}`,
          toolName: 'Network',
          toolUseId: null,
          input: { host: name, port },
          description: `A command wants to connect to ${name}:${port}`,
          blockedPath: null,
        },
        (answer) => resolve(answer.behavior === 'allow'),
      ),
    );
}
