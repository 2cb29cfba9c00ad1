import type { IsolationReport } from '../../../contract/operations.js';
import type { IsolationGate } from './isolation-gate.js';

/** What Diagnostics shows: whether sessions are confined, by what, in which version, per agent. */
export function isolationReport(gate: IsolationGate): IsolationReport {
  const status = gate.status();
  const tools = `bubblewrap ${status.bubblewrap ?? 'missing'}, socat ${status.socat ?? 'missing'}`;
  const off = 'unconfined (RELAIS_ISOLATION=off)';
  return {
    enabled: gate.enabled,
    available: status.available,
    problem: status.problem,
    install: status.install,
    agents: [
      {
        agent: 'claude',
        mechanism: gate.enabled ? `Claude Code's own sandbox (${tools})` : off,
        version: status.bubblewrap,
      },
      {
        agent: 'codex',
        mechanism: gate.enabled ? `the app server inside bubblewrap (${tools})` : off,
        version: status.bubblewrap,
      },
    ],
  };
}
