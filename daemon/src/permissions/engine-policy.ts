import { homedir } from 'node:os';
import { decide, gateReport, type EngineContext, type RulesStore } from './engine/index.js';
import type { PermissionPolicy } from '../agents/permission-policy.js';

export interface EngineSetting {
  store: RulesStore;
  /** The daemon's data folder: always zero-access. */
  dataDir: string;
  /** The HOME the agents run with (`RELAIS_AGENT_HOME`). */
  agentHomeDir: string;
  /** The user's home, for the rules' `~/` circles. */
  homeDir?: string;
}

/** What the engine decides with: the rules in force, and the folders they are read against. */
export function engineContext(setting: EngineSetting): EngineContext {
  return {
    rules: setting.store.current,
    dataDir: setting.dataDir,
    homeDir: setting.homeDir ?? homedir(),
    agentHomeDir: setting.agentHomeDir,
  };
}

/** The rules engine behind the policy seam: the same function `POST /api/rules/check` calls. */
export function enginePolicy(setting: EngineSetting): PermissionPolicy {
  return (request) => {
    const decision = decide(
      {
        tool_name: request.tool_name,
        input: request.input,
        cwd: request.cwd,
        permission_mode: request.permission_mode,
        ...(request.mcp_tools ? { mcp_tools: request.mcp_tools } : {}),
      },
      engineContext(setting),
    );
    return { ...decision, report: gateReport(decision) };
  };
}
