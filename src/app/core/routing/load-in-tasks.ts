/**
 * Loads a page whose modules take long to evaluate a part at a time: each of `parts` (a module
 * the page imports itself) is imported and evaluated in a task of its own, then the page, whose
 * own evaluation no longer runs theirs. Evaluated in one go, the conversation page's modules were
 * one task of 50–65 ms (zod's schemas built, marked's expressions compiled), in which nothing the
 * person typed was handled.
 */
export async function loadInTasks<T>(
  parts: readonly (() => Promise<unknown>)[],
  page: () => Promise<T>,
): Promise<T> {
  for (const part of parts) {
    await part();
    await nextTask();
  }
  return page();
}

/** Resolves in a later task: input and rendering get their turn in between. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve));
}
