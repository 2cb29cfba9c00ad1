import { Injectable, signal } from '@angular/core';

/** A part of a row a person can open: a tool's input or output, what the agent was told, thinking. */
export type RowPart = 'input' | 'output' | 'told' | 'thinking';

/**
 * The parts of the conversation's rows a person opened, by row key. Kept by the conversation's
 * timeline view rather than by each row: a row far from the view is drawn as a placeholder, or
 * leaves the window, and it comes back as the person left it. The page makes one view per
 * conversation, whose rows' keys are its own (they count from 1 in each).
 */
@Injectable()
export class OpenedParts {
  private readonly opened = signal<ReadonlySet<string>>(new Set());

  isOpen(rowKey: string, part: RowPart): boolean {
    return this.opened().has(`${rowKey} ${part}`);
  }

  set(rowKey: string, part: RowPart, open: boolean): void {
    const id = `${rowKey} ${part}`;
    if (this.opened().has(id) === open) return;
    this.opened.update((ids) => {
      const next = new Set(ids);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });
  }
}
