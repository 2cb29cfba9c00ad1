import { homedir } from 'node:os';
import { decide, gateReport, type RulesStore } from './engine/index.js';
import type { PermissionPolicy } from './policy.js';

/** The rules engine behind the policy seam: the same function `POST /api/rules/check` calls. */
export function enginePolicy(
  store: RulesStore,
  dataDir: string,
  homeDir: string = homedir(),
): PermissionPolicy {
  return (request) => {
    const decision = decide(
      {
        tool_name: request.tool_name,
        input: request.input,
        cwd: request.cwd,
        permission_mode: request.permission_mode,
      },
      { rules: store.current, dataDir, homeDir },
    );
    return { ...decision, report: gateReport(decision) };
  };
}
