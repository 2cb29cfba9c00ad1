import { DEMO_KEY_VAR } from './environment.js';

/** The model the demo provider answers as: known to Codex, so it offers apply_patch and warns of nothing. */
export const CODEX_DEMO_MODEL = 'gpt-5.5';

export interface CodexConfigInput {
  /** Set for the demo subscription: where the scripted Responses API listens. */
  demoBaseUrl: string | null;
  /** The proxy of the session's jail (isolation/codex-jail.ts), given to every command it runs. */
  commandProxy?: string | null;
}

/** TOML string: JSON's escaping is a valid TOML basic string. */
const toml = (value: string): string => JSON.stringify(value);

/**
 * config.toml as Relais wants it (PROTOCOLS §3.7, §3.9). Started with --strict-config, so a
 * misspelled key fails the start instead of being ignored. Plugins, remote plugin sync and
 * analytics are off: otherwise Codex calls out at start. Approvals are set per thread
 * (`untrusted`, which config.toml refuses); the sandbox is a second wall.
 */
export function codexConfig(input: CodexConfigInput): string {
  const lines = [
    '# Written by Relais at each start; changes here are overwritten.',
    'approval_policy = "on-request"',
    'sandbox_mode = "workspace-write"',
  ];
  if (input.demoBaseUrl) {
    lines.push(
      `model = ${toml(CODEX_DEMO_MODEL)}`,
      'model_provider = "relais_demo"',
      '',
      '[model_providers.relais_demo]',
      'name = "Relais demo (scripted model)"',
      `base_url = ${toml(`${input.demoBaseUrl}/v1`)}`,
      'wire_api = "responses"',
      `env_key = ${toml(DEMO_KEY_VAR)}`,
      'request_max_retries = 0',
      'stream_max_retries = 0',
    );
  }
  lines.push(
    '',
    '[features]',
    'plugins = false',
    'remote_plugin = false',
    // Codex offers its questions (request_user_input) only in Plan mode otherwise; Relais answers them in the console.
    'default_mode_request_user_input = true',
    '',
    '[analytics]',
    'enabled = false',
    '',
  );
  if (input.commandProxy) {
    // Codex leaves the proxy variables out of a command's environment unless told to set them.
    const proxy = toml(input.commandProxy);
    const names = [
      'HTTP_PROXY',
      'HTTPS_PROXY',
      'ALL_PROXY',
      'http_proxy',
      'https_proxy',
      'all_proxy',
    ];
    lines.push(
      // Codex's own sandbox would give a command a network of its own, without the jail's bridge;
      // the jail is the wall, and its one way out is the gate.
      '[sandbox_workspace_write]',
      'network_access = true',
      '',
      '[shell_environment_policy]',
      `set = { ${names.map((name) => `${name} = ${proxy}`).join(', ')} }`,
      '',
    );
  }
  return lines.join('\n');
}
