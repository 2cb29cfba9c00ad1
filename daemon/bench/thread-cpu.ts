import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** CPU seconds of this process's threads, summed by thread name (Linux; empty elsewhere). */
export function threadCpu(): Map<string, number> {
  const byName = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return byName;
  }
  for (const tid of tids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    // After the name: state is field 3; utime and stime are fields 14 and 15, in clock ticks (100 Hz).
    const fields = stat.slice(close + 2).split(' ');
    const seconds = (Number(fields[11]) + Number(fields[12])) / 100;
    // The main thread is named after the program; every other thread has a name of its own.
    const key = tid === String(process.pid) ? 'main' : name;
    byName.set(key, (byName.get(key) ?? 0) + seconds);
  }
  return byName;
}

/** What each kind of thread spent between two readings, largest first, as "name 1.2 s". */
export function threadCpuSince(before: Map<string, number>): string {
  const after = threadCpu();
  return [...after]
    .map(([name, seconds]): [string, number] => [name, seconds - (before.get(name) ?? 0)])
    .filter(([, seconds]) => seconds >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`)
    .join(', ');
}

/** The load averages over 1, 5 and 15 minutes, as `uptime` gives them. */
export const loadAverage = (): string =>
  loadavg()
    .map((load) => load.toFixed(2))
    .join(', ');
