import { TimelineItem } from './timeline';

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;

export interface DiffLine {
  sign: '+' | '-' | ' ';
  text: string;
}

export type ToolBody =
  | { kind: 'bash'; command: string }
  | { kind: 'path'; path: string; content: string | null }
  | { kind: 'edit'; path: string; diff: DiffLine[] }
  | { kind: 'json'; json: string };

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** An edit as a diff: removed lines, then added lines (the tool gives whole old/new strings). */
export function editDiff(oldText: string, newText: string): DiffLine[] {
  const before = oldText.split('\n');
  const after = newText.split('\n');
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endBefore = before.length - 1;
  let endAfter = after.length - 1;
  while (endBefore >= start && endAfter >= start && before[endBefore] === after[endAfter]) {
    endBefore--;
    endAfter--;
  }
  return [
    ...before.slice(0, start).map((text) => ({ sign: ' ' as const, text })),
    ...before.slice(start, endBefore + 1).map((text) => ({ sign: '-' as const, text })),
    ...after.slice(start, endAfter + 1).map((text) => ({ sign: '+' as const, text })),
    ...after.slice(endAfter + 1).map((text) => ({ sign: ' ' as const, text })),
  ];
}

/** A unified diff's body as lines (Codex's file changes); headers and hunk marks left out. */
export function unifiedDiff(text: string): DiffLine[] {
  return text
    .split('\n')
    .filter((line) => !/^(?:@@|\+\+\+ |--- |diff |index )/.test(line) && line !== '')
    .map((line) => {
      const sign = line[0];
      return sign === '+' || sign === '-'
        ? { sign, text: line.slice(1) }
        : { sign: ' ' as const, text: line.startsWith(' ') ? line.slice(1) : line };
    });
}

/** How a tool call's input is shown, by tool. */
export function toolBody(item: ToolItem): ToolBody {
  const input = item.input;
  switch (item.name) {
    case 'Bash':
      return { kind: 'bash', command: str(input['command']) };
    case 'Read':
      return { kind: 'path', path: str(input['file_path']), content: null };
    case 'Write':
      return { kind: 'path', path: str(input['file_path']), content: str(input['content']) };
    case 'Edit':
      if (typeof input['unified_diff'] === 'string')
        return {
          kind: 'edit',
          path: str(input['file_path']),
          diff: unifiedDiff(input['unified_diff']),
        };
      return {
        kind: 'edit',
        path: str(input['file_path']),
        diff: editDiff(str(input['old_string']), str(input['new_string'])),
      };
    case 'MultiEdit': {
      const edits = Array.isArray(input['edits']) ? (input['edits'] as unknown[]) : [];
      const diff = edits.flatMap((edit) => {
        const record =
          typeof edit === 'object' && edit !== null ? (edit as Record<string, unknown>) : {};
        return editDiff(str(record['old_string']), str(record['new_string']));
      });
      return { kind: 'edit', path: str(input['file_path']), diff };
    }
    default:
      return { kind: 'json', json: JSON.stringify(input, null, 2) };
  }
}

/** Text long enough to be collapsed by default. */
export function isLong(text: string | null | undefined): boolean {
  if (!text) return false;
  return text.length > 800 || text.split('\n').length > 12;
}

export type ToolStatus =
  'running' | 'waiting' | 'ok' | 'error' | 'denied' | 'interrupted' | 'no-result';

/** `live`: the agent may still answer (the session is working or waiting). */
export function toolStatus(item: ToolItem, pending: boolean, live = true): ToolStatus {
  if (item.permission?.decision === 'denied') return 'denied';
  if (item.result?.interrupted) return 'interrupted';
  if (item.result) return item.result.isError ? 'error' : 'ok';
  if (pending) return 'waiting';
  return live ? 'running' : 'no-result';
}
