import { DOCUMENT, Injectable, effect, inject, signal } from '@angular/core';

import {
  THEME_STORAGE_KEY,
  type ThemeChoice,
  applyThemeChoice,
  readThemeChoice,
} from './theme-choice';

export type { ThemeChoice } from './theme-choice';

/** Light or dark: follows the system until the person picks one (kept on this browser). */
@Injectable({ providedIn: 'root' })
export class Theme {
  private readonly document = inject(DOCUMENT);
  private readonly choiceSignal = signal<ThemeChoice>(readThemeChoice());
  readonly choice = this.choiceSignal.asReadonly();

  constructor() {
    effect(() => {
      const choice = this.choiceSignal();
      applyThemeChoice(this.document.documentElement, choice);
      try {
        localStorage.setItem(THEME_STORAGE_KEY, choice);
      } catch {
        // Storage may be disabled; the choice then lasts for this page only.
      }
    });
  }

  /** Whether the page currently shows dark colours. */
  isDark(): boolean {
    const choice = this.choiceSignal();
    if (choice !== 'system') return choice === 'dark';
    return this.document.defaultView?.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  }

  set(choice: ThemeChoice): void {
    this.choiceSignal.set(choice);
  }

  /** Switches to the opposite of what is shown now. */
  toggle(): void {
    this.choiceSignal.set(this.isDark() ? 'light' : 'dark');
  }
}
