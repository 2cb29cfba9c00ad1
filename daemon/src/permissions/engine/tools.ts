import type { AccessKind } from './types.js';

/**
 * Tool families as the engine sees them.
 * - local_read: read or search files, change nothing; pass every mode, then the path and rule steps.
 * - network_read (WebFetch, WebSearch): change nothing locally, so they pass read_only and dry_run, but they
 *   can carry data out, so they are never allowed without a person (default step: ask).
 * - person (AskUserQuestion, ExitPlanMode): addressed to the person, who answers them (ask) in every mode.
 * - bookkeeping (TodoWrite, BashOutput): touch nothing outside the agent; allowed.
 * - file_write, bash, subagent (Agent, Task), mcp (mcp__*) and every unknown tool: act on the world;
 *   refused in read_only and dry_run (fail closed for names we do not know).
 */
export const TOOL_CLASSES = [
  'local_read',
  'network_read',
  'person',
  'bookkeeping',
  'file_write',
  'bash',
  'subagent',
  'mcp',
  'other',
] as const;
export type ToolClass = (typeof TOOL_CLASSES)[number];

const BY_NAME: Readonly<Record<string, ToolClass>> = {
  Read: 'local_read',
  Glob: 'local_read',
  Grep: 'local_read',
  LS: 'local_read',
  NotebookRead: 'local_read',
  WebFetch: 'network_read',
  WebSearch: 'network_read',
  AskUserQuestion: 'person',
  ExitPlanMode: 'person',
  TodoWrite: 'bookkeeping',
  BashOutput: 'bookkeeping',
  Write: 'file_write',
  Edit: 'file_write',
  MultiEdit: 'file_write',
  NotebookEdit: 'file_write',
  Bash: 'bash',
  Agent: 'subagent',
  Task: 'subagent',
};

export function classifyTool(name: string): ToolClass {
  if (Object.hasOwn(BY_NAME, name)) return BY_NAME[name] as ToolClass;
  return name.startsWith('mcp__') ? 'mcp' : 'other';
}

/** A path a request would touch, as written, before resolution. */
export interface PathRef {
  raw: string;
  access: AccessKind;
  /** Folders the raw path may be relative to (a `cd` earlier in a command adds some). */
  cwds: readonly string[];
  /** Where it comes from, for reasons: `file_path`, `rm`, `redirection`… */
  origin: string;
  /** Part of the path is unknown from the text (a variable, a substitution, a wildcard). */
  dynamic?: boolean;
}

export type RefsResult = { ok: true; refs: PathRef[] } | { ok: false; reason: string };

interface FileField {
  field: 'file_path' | 'notebook_path' | 'path';
  access: AccessKind;
  required: boolean;
}

const FILE_FIELDS: Readonly<Record<string, FileField>> = {
  Read: { field: 'file_path', access: 'read', required: true },
  Write: { field: 'file_path', access: 'write', required: true },
  Edit: { field: 'file_path', access: 'write', required: true },
  MultiEdit: { field: 'file_path', access: 'write', required: true },
  NotebookRead: { field: 'notebook_path', access: 'read', required: true },
  NotebookEdit: { field: 'notebook_path', access: 'write', required: true },
  LS: { field: 'path', access: 'read', required: true },
  Glob: { field: 'path', access: 'read', required: false },
  Grep: { field: 'path', access: 'read', required: false },
};

const expandHome = (raw: string, home: string): string =>
  raw === '~' ? home : raw.startsWith('~/') ? `${home}/${raw.slice(2)}` : raw;

/**
 * The paths a file tool names (a leading `~/` is the home folder, as Claude Code reads it).
 * Glob's `pattern` counts too when it is absolute or climbs with `..`.
 */
export function fileToolRefs(
  tool: string,
  input: Record<string, unknown>,
  cwd: string,
  home: string,
): RefsResult {
  const spec = FILE_FIELDS[tool];
  if (spec === undefined) return { ok: true, refs: [] };
  const value = input[spec.field];
  if (value === undefined && !spec.required) {
    return withGlobPattern(
      tool,
      input,
      { raw: cwd, access: spec.access, cwds: [cwd], origin: tool },
      home,
    );
  }
  if (typeof value !== 'string')
    return { ok: false, reason: `${tool}: ${spec.field} is missing or not a string` };
  const ref: PathRef = {
    raw: expandHome(value, home),
    access: spec.access,
    cwds: [cwd],
    origin: `${tool} ${spec.field}`,
  };
  return withGlobPattern(tool, input, ref, home);
}

function withGlobPattern(
  tool: string,
  input: Record<string, unknown>,
  base: PathRef,
  home: string,
): RefsResult {
  if (tool !== 'Glob') return { ok: true, refs: [base] };
  const given = input['pattern'];
  if (typeof given !== 'string')
    return { ok: false, reason: 'Glob: pattern is missing or not a string' };
  const pattern = expandHome(given, home);
  const segments = pattern.split('/');
  const firstWild = segments.findIndex((seg) => /[*?[{]/.test(seg));
  if (firstWild >= 0 && segments.slice(firstWild).includes('..')) {
    return { ok: false, reason: `Glob pattern "${pattern}" climbs with .. after a wildcard` };
  }
  const literal = (firstWild < 0 ? segments : segments.slice(0, firstWild)).join('/');
  if (literal === '' || literal === '.') return { ok: true, refs: [base] };
  const dir = base.raw.replace(/\/+$/, '');
  const raw = literal.startsWith('/') || dir === '' ? literal : `${dir}/${literal}`;
  return {
    ok: true,
    refs: [base, { raw, access: 'read', cwds: base.cwds, origin: 'Glob pattern' }],
  };
}

/** One-line summary of what a tool would do, for dry-run reasons. */
export function summarizeRequest(tool: string, input: Record<string, unknown>): string {
  const clip = (s: string): string => (s.length > 200 ? `${s.slice(0, 200)}…` : s);
  const command = input['command'];
  if (tool === 'Bash' && typeof command === 'string') return `Bash: ${clip(command)}`;
  for (const field of ['file_path', 'notebook_path', 'path'] as const) {
    const value = input[field];
    if (typeof value === 'string') return `${tool} ${clip(value)}`;
  }
  let json: string;
  try {
    json = JSON.stringify(input) ?? '';
  } catch {
    json = '[unserialisable input]';
  }
  return `${tool} ${clip(json)}`;
}
