import { isTyping } from './is-typing';

/**
 * The palette a key opens: Ctrl+K or ⌘K its commands, `?` outside a text box its help; null for
 * any other key. Read by the console's shell and by the first paint (src/first-paint), which keeps
 * such a key for the console while it starts: no Angular here.
 */
export function paletteShortcut(event: KeyboardEvent): 'commands' | 'help' | null {
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') return 'commands';
  if (event.key === '?' && !isTyping(event.target)) return 'help';
  return null;
}
