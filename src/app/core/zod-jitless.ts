/**
 * Asks zod (in every chunk that loads it later) never to compile parsers with `new Function`. The
 * console's CSP forbids eval, so zod would only probe for it, and the probe, though caught, counts
 * as a CSP violation of the page. zod reads this shared config object when it loads and when each
 * object schema is built, so it must be set before any chunk with the contract runs (main.ts).
 */
export function preferJitlessZod(): void {
  const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
  holder.__zod_globalConfig = Object.assign(holder.__zod_globalConfig ?? {}, { jitless: true });
}
