import type { Effort, McpServer, PermissionMode } from '../../../../contract/api.js';
import type { StoredSubscription } from '../../subscriptions/subscription-repo.js';
import type { McpInventory } from '../mcp-launch.js';
import { claudeArguments } from './arguments.js';
import { claudeBinary } from './binary.js';
import type { SpawnSpec } from './claude-process.js';
import { agentEnvironment } from './environment.js';

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
}

/** Builds the spawn specification of the pinned Claude Code for one subscription. */
export class ClaudeLauncher {
  constructor(
    private readonly demoModelUrl: () => string | null,
    private readonly agentHome: string,
  ) {}

  spec(subscription: StoredSubscription, input: LaunchSpecInput): SpawnSpec {
    const demoUrl = subscription.builtin ? this.demoModelUrl() : null;
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
      }),
      cwd: input.cwd,
      env: agentEnvironment({
        configDir: subscription.config_dir,
        home: this.agentHome,
        demo: demoUrl ? { baseUrl: demoUrl } : undefined,
        sessionTag: input.sessionTag,
      }),
      cage: input.cage ?? null,
    };
  }

  /** A spawn for identity detection only: no session, no model call. */
  detectSpec(subscription: StoredSubscription, cwd: string): SpawnSpec {
    return this.spec(subscription, {
      cwd,
      model: 'default',
      effort: null,
      permissionMode: 'read_only',
      sessionTag: `detect-${subscription.id}`,
    });
  }
}
