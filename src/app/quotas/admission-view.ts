import { formatNumber } from '../shared/locale-format';
import { plural } from '../shared/plural';
import { AdmissionAnswer, AdmissionWindow } from '../../../contract/usage';
import { windowName } from './quota-view';

/** One window as the launch form tells what admission weighed. */
export interface AdmissionRow {
  key: string;
  name: string;
  binding: boolean;
  reading: string;
  sum: string;
  rate: string;
  over: boolean;
}

export interface AdmissionView {
  verdict: 'admit' | 'refuse' | 'unchecked';
  headline: string;
  sessions: string;
  rows: AdmissionRow[];
}

const pct = (n: number): string => `${formatNumber(n, n < 10 ? 1 : 0)} %`;

function age(seconds: number): string {
  if (seconds < 60) return $localize`${seconds}:seconds: s ago`;
  const minutes = Math.floor(seconds / 60);
  if (seconds < 3600) return $localize`${minutes}:minutes: min ago`;
  const hours = Math.floor(seconds / 3600);
  return $localize`${hours}:hours: h ${minutes % 60}:minutes: min ago`;
}

function row(
  w: AdmissionWindow,
  binding: boolean,
  running: number,
  threshold: number,
): AdmissionRow {
  const used = pct(w.utilization);
  const sinceUsed = pct(w.used_since_reading);
  const count = w.learned_from_sessions;
  const source =
    w.rate_source === 'learned'
      ? plural(count, {
          one: $localize`learned from ${count}:count: session`,
          other: $localize`learned from ${count}:count: sessions`,
        })
      : $localize`prior for this plan`;
  const read = age(w.read_age_seconds);
  const forRunning = pct(w.reserved_running);
  const forNew = pct(w.reserved_new);
  const projected = pct(w.projected);
  const rate = pct(w.rate_per_session);
  return {
    key: w.window,
    name: windowName(w.window),
    binding,
    reading:
      w.reading_status === 'stale'
        ? $localize`${used}:used:, read ${read}:age: (stale)`
        : $localize`${used}:used:, read ${read}:age:`,
    sum:
      w.used_since_reading > 0
        ? $localize`${used}:used: + ${sinceUsed}:since: used since + ${forRunning}:forRunning: for ${running}:running: running + ${forNew}:forNew: new = ${projected}:projected: of ${threshold}:threshold: %`
        : $localize`${used}:used: + ${forRunning}:forRunning: for ${running}:running: running + ${forNew}:forNew: new = ${projected}:projected: of ${threshold}:threshold: %`,
    rate: $localize`${rate}:rate: a session (${source}:source:)`,
    over: w.projected > threshold,
  };
}

/** The figures of an admission decision (a preview, or a refusal's), in words. */
export function describeAdmission(answer: AdmissionAnswer): AdmissionView {
  const f = answer.figures;
  const units = formatNumber(Math.round(f.units_per_session));
  const ended = f.sessions_averaged;
  const sessions =
    ended > 0
      ? plural(ended, {
          one: $localize`A session averages ${units}:units: units over the last ${ended}:count: ended session.`,
          other: $localize`A session averages ${units}:units: units over the last ${ended}:count: ended sessions.`,
        })
      : $localize`No session has ended yet: a session is taken as ${units}:units: units (the prior).`;
  const verdict = answer.reason === 'no_reading' ? 'unchecked' : answer.admit ? 'admit' : 'refuse';
  const projected = pct(f.projected ?? 0);
  const window = windowName(f.window ?? '');
  const headline =
    verdict === 'unchecked'
      ? $localize`No quota reading yet: a launch is admitted without a check.`
      : verdict === 'admit'
        ? $localize`A launch now would be admitted: the highest projection is ${projected}:projected: of ${f.threshold}:threshold: %.`
        : $localize`A launch now would be refused: ${window}:window: would reach ${projected}:projected:, over ${f.threshold}:threshold: %.`;
  return {
    verdict,
    headline,
    sessions,
    rows: f.windows.map((w) => row(w, w.window === f.window, f.running_sessions, f.threshold)),
  };
}
