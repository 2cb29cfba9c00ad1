/**
 * The key lives in the session storage of the tab that received it, and browsers do not copy that
 * storage into a tab opened from a link. So the console's tabs hand it to each other over a
 * channel of this origin: a link opened in a new tab shows its page instead of asking for the key
 * again, and the key still never reaches persistent storage unless the person chose it.
 */
const CHANNEL = 'relais.api-key';

type KeyMessage = { kind: 'ask' } | { kind: 'key'; key: string };

function channel(): BroadcastChannel | null {
  return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
}

/** Answers the other tabs' asks with `key()` while it holds one; returns how to stop. */
export function answerKeyAsks(key: () => string | null): () => void {
  const open = channel();
  if (!open) return () => undefined;
  open.onmessage = (event: MessageEvent<KeyMessage>) => {
    const held = key();
    if (event.data?.kind === 'ask' && held) open.postMessage({ kind: 'key', key: held });
  };
  return () => open.close();
}

/** The key another open tab of this console holds, or null when none answers within `waitMs`. */
export function askOtherTabs(waitMs: number): Promise<string | null> {
  const open = channel();
  if (!open) return Promise.resolve(null);
  return new Promise((resolve) => {
    const done = (key: string | null) => {
      clearTimeout(timer);
      open.close();
      resolve(key);
    };
    const timer = setTimeout(() => done(null), waitMs);
    open.onmessage = (event: MessageEvent<KeyMessage>) => {
      const message = event.data;
      if (message?.kind === 'key' && typeof message.key === 'string' && message.key.trim())
        done(message.key);
    };
    open.postMessage({ kind: 'ask' } satisfies KeyMessage);
  });
}
