import { Injectable } from '@angular/core';

/** What was typed before the palette's search had focus, and how the typing ended. */
export interface Typed {
  text: string;
  /** Enter was pressed (run the selected command) or Escape (close), or neither yet. */
  end: 'enter' | 'escape' | null;
}

/** Past this, whatever was to take the keys never came: the page gets its keys back. */
export const TYPEAHEAD_MAX_MS = 5000;

/**
 * Keys typed between a shortcut and the focus of what it opens (the palette loads on first use):
 * without this buffer they would land on the page — "Ctrl+K, sessions" typed at speed would
 * search for "ons", and its Enter would press whatever button had focus.
 */

@Injectable({ providedIn: 'root' })
export class Typeahead {
  private typed: string | null = null;
  private end: Typed['end'] = null;
  private startedAt = 0;
  /** The time, in ms (replaced in tests). */
  now: () => number = () => Date.now();

  /** Starts keeping the keys typed from now on. */
  start(): void {
    if (this.typed !== null && !this.expired()) return;
    this.typed = '';
    this.end = null;
    this.startedAt = this.now();
  }

  /**
   * Keeps a typed character (or removes one on Backspace); Enter or Escape ends the typing and
   * is kept too. True when the key was taken: it must then reach nothing else.
   */
  capture(event: KeyboardEvent): boolean {
    if (this.typed !== null && this.expired()) this.take();
    if (this.typed === null || this.end || event.ctrlKey || event.metaKey || event.altKey) {
      return false;
    }
    if (event.key === 'Backspace') {
      this.typed = this.typed.slice(0, -1);
    } else if (event.key === 'Enter' || event.key === 'Escape') {
      this.end = event.key === 'Enter' ? 'enter' : 'escape';
    } else if (event.key.length === 1) {
      this.typed += event.key;
    } else {
      return false;
    }
    event.preventDefault();
    return true;
  }

  private expired(): boolean {
    return this.now() - this.startedAt > TYPEAHEAD_MAX_MS;
  }

  /** What was typed, and stops keeping keys. */
  take(): Typed {
    const typed: Typed = { text: this.typed ?? '', end: this.end };
    this.typed = null;
    this.end = null;
    return typed;
  }
}
