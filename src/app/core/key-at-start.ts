// Read before Angular boots too (the first paint, early reads): nothing here may import Angular.

export const STORAGE_KEY = 'relais.api-key';

/** Reads `#key=…` from a URL fragment; null when there is none. */
export function keyFromFragment(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const key = params.get('key')?.trim();
  return key ? key : null;
}

/**
 * The key as the console will find it, read without moving it: from the URL fragment, else this
 * tab's storage, else this browser's. For the reads started before Angular (early-reads.ts).
 */
export function keyAtStart(): string | null {
  if (typeof location === 'undefined') return null;
  return keyFromFragment(location.hash) ?? storedKey();
}

/** The key kept in this tab's storage, else this browser's (a disabled storage holds none). */
export function storedKey(): string | null {
  const read = (storage: () => Storage): string | null => {
    try {
      return storage().getItem(STORAGE_KEY);
    } catch {
      return null;
    }
  };
  return read(() => sessionStorage) ?? read(() => localStorage);
}
