import { AgentRegistry, type AgentEntry } from '../agents/agent.js';
import { AGENTS } from '../agents/catalog.js';
import { IsolationGate } from '../isolation/isolation-gate.js';
import { NetworkGatePool } from '../isolation/network-gate.js';
import { IsolationPlanner } from '../isolation/session-isolation.js';
import { detectContainment, type Containment } from '../processes/containment.js';
import { relaisPlugin } from './plugin.js';

export interface Agents {
  registry: AgentRegistry;
  /** The catalog's agents and any a caller added (a test's scripted agent). */
  entries: readonly AgentEntry[];
  isolation: IsolationGate;
  /** Plans each session's confinement; null with RELAIS_ISOLATION=off. */
  planner: IsolationPlanner | null;
  containment: Containment;
}

declare module 'fastify' {
  interface FastifyInstance {
    agents: Agents;
  }
}

/**
 * The agents Relais runs, each behind the AgentDriver port (agents/agent.ts), with the isolation
 * and the cgroups their processes start in. A new agent is one line of agents/catalog.ts.
 */
export const agentsPlugin = relaisPlugin<{
  demoModelUrl: string | null;
  more?: readonly AgentEntry[];
}>(
  'relais-agents',
  ['relais-core', 'relais-permissions'],
  async (app, { demoModelUrl, more = [] }) => {
    const { config } = app.core;
    const planner = config.isolation ? new IsolationPlanner(app.permissions.engine) : null;
    const gates = config.isolation ? new NetworkGatePool() : null;
    const context = {
      demoModelUrl: () => demoModelUrl,
      agentHome: config.agentHome,
      planner,
      gates,
    };
    const entries = [...AGENTS, ...more];
    const registry = new AgentRegistry(entries, context);
    const containment = detectContainment(config.home);
    app.decorate<Agents>('agents', {
      registry,
      entries,
      isolation: new IsolationGate(config.isolation),
      planner,
      containment,
    });
    // Registered before the sessions: closes after their agents have stopped.
    app.addHook('onClose', async () => {
      containment.dispose();
      gates?.close();
    });
  },
);
