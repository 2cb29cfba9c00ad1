import { DOCUMENT, Injectable, effect, inject, signal } from '@angular/core';

export type ThemeChoice = 'system' | 'light' | 'dark';
const STORAGE_KEY = 'relais.theme';

/** Light or dark: follows the system until the person picks one (kept on this browser). */
@Injectable({ providedIn: 'root' })
export class Theme {
  private readonly document = inject(DOCUMENT);
  private readonly choiceSignal = signal<ThemeChoice>(readChoice());
  readonly choice = this.choiceSignal.asReadonly();

  constructor() {
    effect(() => {
      const choice = this.choiceSignal();
      const root = this.document.documentElement;
      root.classList.toggle('theme-light', choice === 'light');
      root.classList.toggle('theme-dark', choice === 'dark');
      try {
        localStorage.setItem(STORAGE_KEY, choice);
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

function readChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}
