/**
 * The app of the turns read from a subscription's transcripts (see the analytics filter `origin`).
 * Apart from usage.ts so that code without zod (the export's threads) can read it.
 */
export const IMPORTED_APP = 'imported';
