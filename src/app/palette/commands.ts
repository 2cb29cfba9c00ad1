/** One action of the command palette. */
export interface PaletteCommand {
  id: string;
  label: string;
  group: string;
  /** Extra words the fuzzy search also looks at. */
  keywords?: string;
  run: () => void;
}

/** The keyboard shortcuts the `?` help lists. */
export const SHORTCUTS: readonly { keys: string; action: string }[] = [
  { keys: 'Ctrl/⌘ K', action: $localize`Open the command palette` },
  { keys: '?', action: $localize`List keyboard shortcuts` },
  { keys: '↑ / ↓, Enter', action: $localize`Choose and run a palette command` },
  { keys: 'Esc', action: $localize`Close the palette or a dialog` },
  { keys: 'Enter', action: $localize`Send the message (composer)` },
  { keys: 'Shift Enter', action: $localize`New line in the composer` },
  { keys: 'Alt ↑ / Alt ↓', action: $localize`Move a focused queue entry up or down` },
  { keys: 'Delete', action: $localize`Remove a focused queue entry` },
  { keys: 'Home', action: $localize`Go to the first step of a conversation (when it is focused)` },
  { keys: 'End', action: $localize`Go to the latest step and follow the live tail (same)` },
];
