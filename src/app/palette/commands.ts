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
  { keys: 'Ctrl/⌘ K', action: 'Open the command palette' },
  { keys: '?', action: 'List keyboard shortcuts' },
  { keys: '↑ / ↓, Enter', action: 'Choose and run a palette command' },
  { keys: 'Esc', action: 'Close the palette or a dialog' },
  { keys: 'Enter', action: 'Send the message (composer)' },
  { keys: 'Shift Enter', action: 'New line in the composer' },
  { keys: 'Alt ↑ / Alt ↓', action: 'Move a focused queue entry up or down' },
  { keys: 'Delete', action: 'Remove a focused queue entry' },
  { keys: 'Home', action: 'Go to the first step of a conversation (when it is focused)' },
  { keys: 'End', action: 'Go to the latest step and follow the live tail (same)' },
];
