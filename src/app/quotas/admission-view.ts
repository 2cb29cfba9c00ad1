import { formatNumber } from '../shared/locale-format';
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

const pct = (n: number): string => `${n < 10 ? n.toFixed(1) : n.toFixed(0)} %`;
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function age(seconds: number): string {
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min ago`;
}

function row(
  w: AdmissionWindow,
  binding: boolean,
  running: number,
  threshold: number,
): AdmissionRow {
  const since = w.used_since_reading > 0 ? ` + ${pct(w.used_since_reading)} used since` : '';
  const source =
    w.rate_source === 'learned'
      ? `learned from ${plural(w.learned_from_sessions, 'session')}`
      : 'prior for this plan';
  return {
    key: w.window,
    name: windowName(w.window),
    binding,
    reading: `${pct(w.utilization)}, read ${age(w.read_age_seconds)}${w.reading_status === 'stale' ? ' (stale)' : ''}`,
    sum:
      `${pct(w.utilization)}${since} + ${pct(w.reserved_running)} for ${running} running` +
      ` + ${pct(w.reserved_new)} new = ${pct(w.projected)} of ${threshold} %`,
    rate: `${pct(w.rate_per_session)} a session (${source})`,
    over: w.projected > threshold,
  };
}

/** The figures of an admission decision (a preview, or a refusal's), in words. */
export function describeAdmission(answer: AdmissionAnswer): AdmissionView {
  const f = answer.figures;
  const sessions =
    f.sessions_averaged > 0
      ? `A session averages ${formatNumber(Math.round(f.units_per_session))} units over the last ${plural(f.sessions_averaged, 'ended session')}.`
      : $localize`No session has ended yet: a session is taken as ${formatNumber(Math.round(f.units_per_session))} units (the prior).`;
  const verdict = answer.reason === 'no_reading' ? 'unchecked' : answer.admit ? 'admit' : 'refuse';
  const headline =
    verdict === 'unchecked'
      ? $localize`No quota reading yet: a launch is admitted without a check.`
      : verdict === 'admit'
        ? `A launch now would be admitted: the highest projection is ${pct(f.projected ?? 0)} of ${f.threshold} %.`
        : `A launch now would be refused: ${windowName(f.window ?? '')} would reach ${pct(f.projected ?? 0)}, over ${f.threshold} %.`;
  return {
    verdict,
    headline,
    sessions,
    rows: f.windows.map((w) => row(w, w.window === f.window, f.running_sessions, f.threshold)),
  };
}
