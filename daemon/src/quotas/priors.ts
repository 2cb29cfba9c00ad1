import { readClaudeOAuth } from './claude-credentials.js';

/**
 * What admission assumes before it has learned anything: percent of a window per 1000 usage units,
 * and the units of a session when the subscription has none ended yet. Rough by nature (providers
 * publish limits in prompts and hours, not tokens); see the README for how each was reached. They
 * lean high: before learning, reserving too much only delays a launch, reserving too little lets
 * sessions push the account past its limit.
 */
export type Plan = 'demo' | 'pro' | 'max_5x' | 'max_20x' | 'unknown';

interface Prior {
  fiveHourPer1k: number;
  sevenDayPer1k: number;
  sessionUnits: number;
}

const PRIORS: Record<string, Partial<Record<Plan, Prior>>> = {
  claude: {
    // The demo endpoint counts 1 % and 0.25 % per 1000 units: the prior is half, so learning shows.
    demo: { fiveHourPer1k: 0.5, sevenDayPer1k: 0.125, sessionUnits: 400 },
    pro: { fiveHourPer1k: 0.05, sevenDayPer1k: 0.006, sessionUnits: 200_000 },
    max_5x: { fiveHourPer1k: 0.01, sevenDayPer1k: 0.0015, sessionUnits: 200_000 },
    max_20x: { fiveHourPer1k: 0.0025, sevenDayPer1k: 0.0004, sessionUnits: 200_000 },
  },
  codex: {
    // The Codex demo's windows are fixed figures from the demo model's headers: a demo-sized prior.
    demo: { fiveHourPer1k: 0.5, sevenDayPer1k: 0.125, sessionUnits: 400 },
    unknown: { fiveHourPer1k: 0.05, sevenDayPer1k: 0.007, sessionUnits: 200_000 },
  },
};

/** The most cautious known plan of the agent stands for an unknown one. */
function priorOf(agent: string, plan: Plan): Prior {
  const table = PRIORS[agent] ?? PRIORS['claude']!;
  return table[plan] ?? table['pro'] ?? table['unknown']!;
}

/** Percent of `window` per usage unit. Unknown windows are taken as dear as the five-hour one. */
export function priorRate(agent: string, plan: Plan, window: string): number {
  const prior = priorOf(agent, plan);
  const per1k = /seven_day|weekly/.test(window) ? prior.sevenDayPer1k : prior.fiveHourPer1k;
  return per1k / 1000;
}

export function priorSessionUnits(agent: string, plan: Plan): number {
  return priorOf(agent, plan).sessionUnits;
}

/**
 * The plan of a Claude login, from the credentials file Claude Code writes (`subscriptionType`,
 * `rateLimitTier`); unknown when absent or unreadable.
 */
export function readClaudePlan(configDir: string): Plan {
  const oauth = readClaudeOAuth(configDir) ?? {};
  const tier = typeof oauth['rateLimitTier'] === 'string' ? oauth['rateLimitTier'] : '';
  const type = typeof oauth['subscriptionType'] === 'string' ? oauth['subscriptionType'] : '';
  if (/20x/.test(tier)) return 'max_20x';
  if (/5x/.test(tier) || type === 'max') return 'max_5x';
  if (type === 'pro') return 'pro';
  return 'unknown';
}
