import { SESSION_TAG_VAR } from '../session-tag.js';

/** Variables copied from the daemon's own environment; everything else is left out. */
const ALLOWED = [
  'PATH',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TERM',
  'USER',
  'LOGNAME',
  'SHELL',
  'TMPDIR',
] as const;

export interface AgentEnvironmentInput {
  configDir: string;
  home: string;
  /** Set for the demo subscription only: where the scripted model listens. */
  demo?: { baseUrl: string };
  /** Marks every process of the session so that leftovers can be found after a crash. */
  sessionTag: string;
}

export { SESSION_TAG_VAR };

/**
 * The agent's environment, built from nothing: an allow-list of harmless variables, the
 * subscription's own configuration folder, and traffic switches. No key of Relais, and no
 * variable of another subscription, can reach it.
 */
export function agentEnvironment(
  input: AgentEnvironmentInput,
  from: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ALLOWED) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  env['HOME'] = input.home;
  env['CLAUDE_CONFIG_DIR'] = input.configDir;
  env['CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC'] = '1';
  env['DISABLE_TELEMETRY'] = '1';
  env['DISABLE_ERROR_REPORTING'] = '1';
  env['DISABLE_AUTOUPDATER'] = '1';
  env[SESSION_TAG_VAR] = input.sessionTag;
  if (input.demo) {
    env['ANTHROPIC_BASE_URL'] = input.demo.baseUrl;
    env['ANTHROPIC_API_KEY'] = 'relais-demo-model';
    env['CLAUDE_CODE_MAX_RETRIES'] = '0';
  }
  return env;
}
