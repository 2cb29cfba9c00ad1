import type { Effort, McpServer, PermissionMode } from '../../../../contract/api.js';
import type { AgentSubscription as StoredSubscription } from '../agent.js';
import type { McpInventory } from '../mcp-launch.js';
import { claudeArguments } from './arguments.js';
import { claudeBinary } from './binary.js';
import type { SpawnSpec } from '../../processes/spawn-agent.js';
import { agentEnvironment } from './environment.js';
import { claudeSandboxSettings } from '../../isolation/claude-sandbox.js';
import type { IsolationPlanner } from '../../isolation/session-isolation.js';

export interface LaunchSpecInput {
  cwd: string;
  model: string;
  effort: Effort | null;
  permissionMode: PermissionMode;
  sessionTag: string;
  cage?: string | null;
  mcpServers?: Record<string, McpServer>;
  mcpInventory?: McpInventory;
  resumeId?: string | null;
  instructions?: string | null;
  /** The session's network gate (isolation/network-gate.ts), when it has one. */
  proxyPort?: number | null;
}

/** Builds the spawn specification of the pinned Claude Code for one subscription. */
export class ClaudeLauncher {
  constructor(
    private readonly demoModelUrl: () => string | null,
    private readonly agentHome: string,
    /** Confines every command of a session; null runs them unconfined (RELAIS_ISOLATION=off). */
    private readonly isolation: IsolationPlanner | null = null,
  ) {}

  spec(
    subscription: StoredSubscription,
    input: LaunchSpecInput,
    confined: boolean = this.isolation !== null,
  ): SpawnSpec {
    const demoUrl = subscription.builtin ? this.demoModelUrl() : null;
    const isolation =
      confined && this.isolation
        ? this.isolation.forSession(input.cwd, input.permissionMode)
        : null;
    const env = agentEnvironment({
      configDir: subscription.config_dir,
      home: this.agentHome,
      demo: demoUrl ? { baseUrl: demoUrl } : undefined,
      sessionTag: input.sessionTag,
    });
    // Claude's own temporary files (the shell's working-folder notes among them) go there too.
    // The sandbox's network bridge (a socket in TMPDIR) must lie in a folder its commands can see.
    if (isolation) {
      env['CLAUDE_CODE_TMPDIR'] = isolation.tempDir;
      env['TMPDIR'] = isolation.tempDir;
    }
    return {
      binary: claudeBinary().path,
      args: claudeArguments({
        model: input.model,
        effort: input.effort,
        permissionMode: input.permissionMode,
        mcpServers: input.mcpServers,
        mcpInventory: input.mcpInventory,
        resumeId: input.resumeId,
        instructions: input.instructions ?? null,
        settings: isolation
          ? claudeSandboxSettings(isolation.circles, input.proxyPort ?? null)
          : null,
      }),
      cwd: input.cwd,
      env,
      cage: input.cage ?? null,
      tempDir: isolation?.tempDir ?? null,
    };
  }

  /** A spawn for identity detection only: no session, no model call, no command. */
  detectSpec(subscription: StoredSubscription, cwd: string): SpawnSpec {
    return this.spec(
      subscription,
      {
        cwd,
        model: 'default',
        effort: null,
        permissionMode: 'read_only',
        sessionTag: `detect-${subscription.id}`,
      },
      false,
    );
  }
}
