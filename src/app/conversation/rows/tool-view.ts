import { parsePatch } from 'diff';
import { DiffRow, diffRows, textHunks } from './diff-model';
import { refusalOf } from '../timeline/refusal';
import { TimelineItem } from '../timeline/timeline';

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;

export type ToolBody =
  | { kind: 'bash'; command: string }
  | { kind: 'path'; path: string; content: string | null }
  | { kind: 'edit'; path: string; rows: DiffRow[]; numbered: boolean }
  | { kind: 'json'; json: string };

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * An edit as a diff: the structured patch of its result when there is one (real line numbers),
 * else a line diff of the strings it asked to replace (numbers unknown until it is applied).
 */
function editBody(item: ToolItem, pairs: { old: string; new: string }[]): ToolBody {
  const path = str(item.input['file_path']);
  const patch = item.result?.patch;
  if (patch) return { kind: 'edit', path, rows: diffRows(patch), numbered: true };
  const rows = pairs.flatMap((pair, index) => {
    // Whole lines on both sides, so a snippet is not reported as lacking a final newline.
    const part = diffRows(textHunks(`${pair.old}\n`, `${pair.new}\n`), false);
    return index > 0 && part.length > 0
      ? [{ kind: 'gap' as const, oldNo: null, newNo: null, text: `edit ${index + 1}` }, ...part]
      : part;
  });
  return { kind: 'edit', path, rows, numbered: false };
}

/**
 * A unified diff (Codex's file changes) as rows: numbered from its hunk headers when it has
 * them, else line by line without numbers.
 */
function unifiedRows(text: string): { rows: DiffRow[]; numbered: boolean } {
  let hunks: ReturnType<typeof parsePatch>[number]['hunks'] = [];
  try {
    hunks = parsePatch(text).flatMap((file) => file.hunks);
  } catch {
    hunks = [];
  }
  if (hunks.length > 0) return { rows: diffRows(hunks), numbered: true };
  const rows = text
    .split('\n')
    .filter((line) => !/^(?:@@|\+\+\+ |--- |diff |index )/.test(line) && line !== '')
    .map((line): DiffRow => {
      const sign = line[0];
      const kind = sign === '+' ? 'add' : sign === '-' ? 'del' : 'ctx';
      const body = sign === '+' || sign === '-' || sign === ' ' ? line.slice(1) : line;
      return { kind, oldNo: null, newNo: null, text: body };
    });
  return { rows, numbered: false };
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
      // Overwriting an existing file: its result carries the patch against the old content.
      return item.result?.patch
        ? editBody(item, [])
        : { kind: 'path', path: str(input['file_path']), content: str(input['content']) };
    case 'Edit':
      // Codex sends its file change as a unified diff.
      if (typeof input['unified_diff'] === 'string')
        return {
          kind: 'edit',
          path: str(input['file_path']),
          ...unifiedRows(input['unified_diff']),
        };
      return editBody(item, [{ old: str(input['old_string']), new: str(input['new_string']) }]);
    case 'MultiEdit': {
      const edits = Array.isArray(input['edits']) ? (input['edits'] as unknown[]) : [];
      return editBody(
        item,
        edits.map((edit) => {
          const record =
            typeof edit === 'object' && edit !== null ? (edit as Record<string, unknown>) : {};
          return { old: str(record['old_string']), new: str(record['new_string']) };
        }),
      );
    }
    default:
      return { kind: 'json', json: JSON.stringify(input, null, 2) };
  }
}

/** Text long enough to be collapsed by default. */
export function isLong(text: string | null | undefined): boolean {
  if (!text) return false;
  return isLongText(text.length, lineCount(text));
}

/** Collapsed by default: past 800 characters or 12 lines. */
export function isLongText(length: number, lines: number): boolean {
  return length > 800 || lines > 12;
}

/**
 * How many lines `text` has: one more than its line breaks. Counted in place: splitting a tool's
 * output into an array of its lines, for a number, was 6 of the 130 MB scrolling 10,000 long
 * outputs allocated.
 */
export function lineCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

export type ToolStatus =
  'running' | 'waiting' | 'ok' | 'error' | 'denied' | 'refused' | 'interrupted' | 'no-result';

/** `live`: the agent may still answer (the session is working or waiting). */
export function toolStatus(item: ToolItem, pending: boolean, live = true): ToolStatus {
  if (item.permission?.decision === 'denied') return 'denied';
  if (refusalOf(item.gate)) return 'refused';
  if (item.result?.interrupted) return 'interrupted';
  if (item.result) return item.result.isError ? 'error' : 'ok';
  if (pending) return 'waiting';
  return live ? 'running' : 'no-result';
}
