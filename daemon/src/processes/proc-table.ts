import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** What Relais needs from `/proc/<pid>/stat`. */
export interface ProcStat {
  /** One letter: R, S, D, Z (zombie), T… */
  state: string;
  ppid: number;
  pgrp: number;
  /** Clock ticks since boot: with the pid, names one process for good (pids are reused). */
  startTicks: number;
}

/** Parses `/proc/<pid>/stat`; null once the process is gone (or without /proc). */
export function readStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    state: fields[0] ?? '?',
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    startTicks: Number(fields[19]),
  };
}

/** Every pid in `/proc`; empty without /proc (not Linux). */
export function allPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number);
  } catch {
    return [];
  }
}

/** The PID namespace a process is in, as the kernel names it (`pid:[4026532…]`). */
export function pidNamespaceOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return null;
  }
}

/** The process's pid in each namespace it belongs to, outermost first (the `NSpid` line). */
export function namespacePids(pid: number): number[] {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const line = status.split('\n').find((l) => l.startsWith('NSpid:'));
    return line ? line.slice('NSpid:'.length).trim().split(/\s+/).map(Number) : [];
  } catch {
    return [];
  }
}

/** The processes in the PID namespace `namespace` (as `pidNamespaceOf` names it). */
export function processesInNamespace(namespace: string): number[] {
  return allPids().filter((pid) => pidNamespaceOf(pid) === namespace);
}
