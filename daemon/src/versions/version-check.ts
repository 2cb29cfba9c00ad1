import { execFile } from 'node:child_process';
import type { VersionCard } from '../../../contract/operations.js';
import { nowIso } from '../ids.js';

export interface AgentPackage {
  agent: string;
  package: string;
  pinned: () => string | null;
}

/** Asks the registry of the user's own npm configuration for a package's latest version. */
export type LatestVersion = (pkg: string) => Promise<string>;

export function npmLatest(env: NodeJS.ProcessEnv = process.env, timeoutMs = 20_000): LatestVersion {
  return (pkg) =>
    new Promise((resolve, reject) => {
      execFile(
        'npm',
        ['view', pkg, 'version', '--json', '--prefer-online'],
        { env, timeout: timeoutMs },
        (error, stdout, stderr) => {
          if (error) {
            const line =
              `${stderr}`.split('\n').find((l) => /npm (error|ERR!)/.test(l)) ?? error.message;
            reject(new Error(line.replace(/^npm (error|ERR!)\s*/, '').trim()));
            return;
          }
          try {
            const value: unknown = JSON.parse(stdout);
            if (typeof value === 'string') resolve(value);
            else reject(new Error('npm answered no version'));
          } catch {
            reject(new Error('npm answered something that is not JSON'));
          }
        },
      );
    });
}

/** Compares dotted numeric versions (pre-release tags compare as text after the numbers). */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string): [number[], string] => {
    const [core = '', pre = ''] = v.split('-', 2);
    return [core.split('.').map((n) => Number(n) || 0), pre];
  };
  const [an, ap] = parse(a);
  const [bn, bp] = parse(b);
  for (let i = 0; i < Math.max(an.length, bn.length); i++) {
    const d = (an[i] ?? 0) - (bn[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (ap === bp) return 0;
  if (!ap) return 1;
  if (!bp) return -1;
  return ap < bp ? -1 : 1;
}

/**
 * Version cards, cached: asked again on demand (refresh) or when older than `maxAgeMs`. Never
 * installs anything; the registry is whatever the user's npm configuration names.
 */
export class VersionChecker {
  private cards: VersionCard[] | null = null;
  private checkedAtMs = 0;
  private inFlight: Promise<VersionCard[]> | null = null;

  constructor(
    private readonly agents: AgentPackage[],
    private readonly latest: LatestVersion,
    private readonly maxAgeMs = 6 * 3600 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  get(refresh = false): Promise<VersionCard[]> {
    if (!refresh && this.cards && this.now() - this.checkedAtMs < this.maxAgeMs)
      return Promise.resolve(this.cards);
    this.inFlight ??= this.check().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  private async check(): Promise<VersionCard[]> {
    const at = this.now();
    const cards = await Promise.all(this.agents.map((agent) => this.card(agent, at)));
    this.cards = cards;
    this.checkedAtMs = at;
    return cards;
  }

  private async card(agent: AgentPackage, at: number): Promise<VersionCard> {
    const pinned = agent.pinned();
    const base = { agent: agent.agent, package: agent.package, pinned, checked_at: nowIso(at) };
    let latest: string;
    try {
      latest = await this.latest(agent.package);
    } catch (error: unknown) {
      // Offline, a registry error, no npm: the card says so rather than guessing.
      return {
        ...base,
        latest: null,
        status: 'unknown',
        reason: `The registry could not be asked: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    if (!pinned)
      return { ...base, latest, status: 'unknown', reason: 'The pinned package is not installed.' };
    const order = compareVersions(latest, pinned);
    if (order === 0) return { ...base, latest, status: 'same', reason: null };
    if (order > 0)
      return {
        ...base,
        latest,
        status: 'newer',
        reason: `${latest} is published but not yet validated by Relais.`,
      };
    return {
      ...base,
      latest,
      status: 'unknown',
      reason: `The registry's latest (${latest}) is older than the pinned ${pinned}.`,
    };
  }
}
