// Read before Angular boots too (the first paint): nothing here may import Angular.

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_STORAGE_KEY = 'relais.theme';

/** The theme this browser keeps, 'system' when none (or storage is disabled). */
export function readThemeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

/** Sets the classes the global styles read to pick light or dark colours. */
export function applyThemeChoice(root: HTMLElement, choice: ThemeChoice): void {
  root.classList.toggle('theme-light', choice === 'light');
  root.classList.toggle('theme-dark', choice === 'dark');
}
