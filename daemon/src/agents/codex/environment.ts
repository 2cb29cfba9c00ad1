import { SESSION_TAG_VAR } from '../session-tag.js';

/** Variables copied from the daemon's own environment; everything else is left out. */
const ALLOWED = ['LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TERM', 'USER', 'LOGNAME', 'TMPDIR'] as const;

/** Commands run as `bash -lc`: a short, fixed PATH rather than whatever the daemon was given. */
const AGENT_PATH = '/usr/local/bin:/usr/bin:/bin';

/** The variable that carries the demo provider's bearer token (config.toml names it). */
export const DEMO_KEY_VAR = 'RELAIS_DEMO_KEY';

export interface CodexEnvironmentInput {
  codexHome: string;
  home: string;
  sessionTag: string;
  demo: boolean;
}

/**
 * Codex's environment, built from nothing (PROTOCOLS §3.9): an allow-list of harmless variables,
 * the subscription's CODEX_HOME, the agent's HOME, and for the demo the fake provider's key.
 * `OPENAI_BASE_URL` and every other variable of the daemon stay out.
 */
export function codexEnvironment(
  input: CodexEnvironmentInput,
  from: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ALLOWED) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  env['LANG'] ??= 'C.UTF-8';
  env['PATH'] = AGENT_PATH;
  env['HOME'] = input.home;
  env['CODEX_HOME'] = input.codexHome;
  env[SESSION_TAG_VAR] = input.sessionTag;
  if (input.demo) env[DEMO_KEY_VAR] = 'relais-demo-model';
  return env;
}
