/** Moves the item at `from` to `to` (clamped), returning a new array. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  if (from < 0 || from >= next.length) return next;
  const target = Math.max(0, Math.min(next.length - 1, to));
  const [moved] = next.splice(from, 1);
  next.splice(target, 0, moved as T);
  return next;
}

/** The reorder a key press asks for on a focused entry (Alt+ArrowUp/Down), or null. */
export function keyboardMove(
  key: string,
  altKey: boolean,
  index: number,
  length: number,
): number | null {
  if (!altKey) return null;
  if (key === 'ArrowUp' && index > 0) return index - 1;
  if (key === 'ArrowDown' && index < length - 1) return index + 1;
  return null;
}

/** Whether a message typed now goes straight to the agent or waits in the queue. */
export function deliveryFor(
  state: string | undefined,
  queueLength: number,
): 'now' | 'queued' | 'closed' {
  if (!state || state === 'ended' || state === 'stopping') return 'closed';
  return state === 'idle' && queueLength === 0 ? 'now' : 'queued';
}
