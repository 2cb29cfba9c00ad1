import { AgentRegistry } from '../agents/agent.js';
import { ClaudeDriver } from '../agents/claude/claude-agent.js';
import { ClaudeLauncher } from '../agents/claude/launcher.js';
import { CodexDriver } from '../agents/codex/codex-driver.js';
import { IsolationGate } from '../isolation/isolation-gate.js';
import { NetworkGatePool } from '../isolation/network-gate.js';
import { IsolationPlanner } from '../isolation/session-isolation.js';
import { detectContainment, type Containment } from '../processes/containment.js';
import { relaisPlugin } from './plugin.js';

export interface Agents {
  registry: AgentRegistry;
  isolation: IsolationGate;
  containment: Containment;
}

declare module 'fastify' {
  interface FastifyInstance {
    agents: Agents;
  }
}

/**
 * The agents Relais runs, each behind the AgentDriver port (agents/agent.ts), with the isolation
 * and the cgroups their processes start in. A new agent is one line of the registry here.
 */
export const agentsPlugin = relaisPlugin<{ demoModelUrl: string | null }>(
  'relais-agents',
  ['relais-core', 'relais-permissions'],
  async (app, { demoModelUrl }) => {
    const { config } = app.core;
    const planner = config.isolation ? new IsolationPlanner(app.permissions.engine) : null;
    const gates = config.isolation ? new NetworkGatePool() : null;
    const demo = (): string | null => demoModelUrl;
    const registry = new AgentRegistry([
      new ClaudeDriver(new ClaudeLauncher(demo, config.agentHome, planner), gates),
      new CodexDriver(demo, config.agentHome, planner),
    ]);
    const containment = detectContainment(config.home);
    app.decorate<Agents>('agents', {
      registry,
      isolation: new IsolationGate(config.isolation),
      containment,
    });
    // Registered before the sessions: closes after their agents have stopped.
    app.addHook('onClose', async () => {
      containment.dispose();
      gates?.close();
    });
  },
);
