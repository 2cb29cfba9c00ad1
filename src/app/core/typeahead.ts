import { Injectable } from '@angular/core';

/**
 * Keys typed between a shortcut and the focus of what it opens (the palette loads on first use):
 * without this buffer they would land on the page and be lost, so "Ctrl+K, sessions" typed at
 * speed would search for "ons".
 */
@Injectable({ providedIn: 'root' })
export class Typeahead {
  private typed: string | null = null;

  /** Starts keeping the keys typed from now on. */
  start(): void {
    this.typed ??= '';
  }

  /** Keeps a typed character (or removes one on Backspace); true when the key was taken. */
  capture(event: KeyboardEvent): boolean {
    if (this.typed === null || event.ctrlKey || event.metaKey || event.altKey) return false;
    if (event.key === 'Backspace') {
      this.typed = this.typed.slice(0, -1);
    } else if (event.key.length === 1) {
      this.typed += event.key;
    } else {
      return false;
    }
    event.preventDefault();
    return true;
  }

  /** What was typed, and stops keeping keys. */
  take(): string {
    const typed = this.typed ?? '';
    this.typed = null;
    return typed;
  }
}
