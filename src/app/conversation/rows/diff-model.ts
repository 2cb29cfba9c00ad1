import { structuredPatch } from 'diff';
import * as z from 'zod';

/** One hunk of a unified diff, as Claude Code's Edit/MultiEdit/Write results and jsdiff give it. */
export const Hunk = z.object({
  oldStart: z.number().int().nonnegative(),
  oldLines: z.number().int().nonnegative(),
  newStart: z.number().int().nonnegative(),
  newLines: z.number().int().nonnegative(),
  lines: z.array(z.string()),
});
export type Hunk = z.infer<typeof Hunk>;

const PatchedResult = z.object({ structuredPatch: z.array(Hunk) }).loose();

/** The structured patch of a tool result (`toolUseResult.structuredPatch`), if it carries one. */
export function patchOf(toolUseResult: unknown): Hunk[] | null {
  // Most results carry no patch: no failed parse (and its error) for them.
  const candidate = (toolUseResult as { structuredPatch?: unknown } | null)?.structuredPatch;
  if (!Array.isArray(candidate)) return null;
  const parsed = PatchedResult.safeParse(toolUseResult);
  return parsed.success && parsed.data.structuredPatch.length > 0
    ? parsed.data.structuredPatch
    : null;
}

export interface DiffRow {
  kind: 'add' | 'del' | 'ctx' | 'gap' | 'note';
  /** Line numbers in the file before and after; null where a side has no such line (or none is known). */
  oldNo: number | null;
  newNo: number | null;
  text: string;
}

/**
 * Rows to show for a list of hunks: every line with its old and new numbers, a gap row between
 * hunks (and before the first when it does not start at line 1), notes such as "No newline at end
 * of file" as their own rows. `numbered` false: the hunks come from a snippet, not the file.
 */
export function diffRows(hunks: readonly Hunk[], numbered = true): DiffRow[] {
  const rows: DiffRow[] = [];
  let lastOldEnd = 1;
  for (const hunk of hunks) {
    // jsdiff and Claude Code give oldStart 0 for an empty old side.
    let oldNo = Math.max(hunk.oldStart, 1);
    let newNo = Math.max(hunk.newStart, 1);
    if (numbered && oldNo > lastOldEnd)
      rows.push({ kind: 'gap', oldNo: null, newNo: null, text: `@@ line ${oldNo} @@` });
    for (const line of hunk.lines) {
      const sign = line[0];
      const text = line.slice(1);
      if (sign === '\\') {
        rows.push({ kind: 'note', oldNo: null, newNo: null, text: text.trim() });
      } else if (sign === '-') {
        rows.push({ kind: 'del', oldNo: numbered ? oldNo : null, newNo: null, text });
        oldNo++;
      } else if (sign === '+') {
        rows.push({ kind: 'add', oldNo: null, newNo: numbered ? newNo : null, text });
        newNo++;
      } else {
        rows.push({
          kind: 'ctx',
          oldNo: numbered ? oldNo : null,
          newNo: numbered ? newNo : null,
          text,
        });
        oldNo++;
        newNo++;
      }
    }
    lastOldEnd = oldNo;
  }
  return rows;
}

/** A real line diff of two texts (an edit's old and new strings), with up to 3 lines of context. */
export function textHunks(oldText: string, newText: string): Hunk[] {
  if (oldText === newText) return [];
  return structuredPatch('', '', oldText, newText, '', '', { context: 3 }).hunks;
}
