import { setFlagsFromString } from 'node:v8';

/**
 * How far past its live size V8 lets the JS heap grow before a full collection, in percent.
 * By default it grows up to four times the live size when collecting is cheap: a history import
 * (about 35 MB live, most of it the daemon's code) then peaked at a 190 MB heap and 300 MB RSS
 * with garbage. Twice the live size brought the peak to 120 MB of heap, for the same CPU within
 * the noise (bench:history 1 GB).
 */
export const HEAP_GROWING_PERCENT = 100;

/** Applies the daemon's heap growth to this process (V8 reads it at each full collection). */
export function limitHeapGrowth(percent = HEAP_GROWING_PERCENT): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
