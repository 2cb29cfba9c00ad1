import type { ModelInfo } from '../../../../contract/api.js';
import type { AgentIdentity } from '../agent.js';
import { accountKeyOf } from '../kit/account-key.js';
import type { SpawnSpec } from '../../processes/spawn-agent.js';
import { ClaudeProcess } from './claude-process.js';

export type Identity = AgentIdentity;

/** Reads identity and models with the stream-json `initialize` request: no model call, no tokens. */
export async function detectIdentity(spec: SpawnSpec, timeoutMs = 20_000): Promise<Identity> {
  let exitNote = '';
  const agent = new ClaudeProcess(spec, {
    onLine: () => undefined,
    onControlRequest: (request) =>
      agent.write({
        type: 'control_response',
        response: {
          subtype: 'error',
          request_id: request.requestId,
          error: 'not supported during detection',
        },
      }),
    onControlCancel: () => undefined,
    onExit: (code, _signal, stderr) => {
      exitNote = stderr.findLast((line) => line.trim() !== '') ?? `exit code ${code}`;
    },
  });
  try {
    const response = (await agent.request('initialize', {}, timeoutMs).catch((error: unknown) => {
      throw new Error(exitNote || (error instanceof Error ? error.message : String(error)));
    })) as Record<string, unknown>;
    return parseIdentity(response);
  } finally {
    agent.closeInput();
    setTimeout(() => agent.killGroup('SIGKILL'), 2000).unref();
  }
}

export function parseIdentity(response: Record<string, unknown>): Identity {
  const account = (
    response['account'] && typeof response['account'] === 'object' ? response['account'] : {}
  ) as Record<string, unknown>;
  const models = Array.isArray(response['models']) ? response['models'] : [];
  return {
    account,
    accountKey: accountKeyOf(account),
    models: models.flatMap((m): ModelInfo[] => {
      if (!m || typeof m !== 'object') return [];
      const model = m as Record<string, unknown>;
      if (typeof model['value'] !== 'string') return [];
      return [
        {
          value: model['value'],
          display_name:
            typeof model['displayName'] === 'string' ? model['displayName'] : model['value'],
          description: typeof model['description'] === 'string' ? model['description'] : null,
          supported_effort_levels: Array.isArray(model['supportedEffortLevels'])
            ? model['supportedEffortLevels'].filter(
                (level): level is string => typeof level === 'string',
              )
            : [],
        },
      ];
    }),
    version:
      typeof response['claude_code_version'] === 'string' ? response['claude_code_version'] : null,
  };
}
