import * as z from 'zod';

/** Fields the contract's parts share but the API does not name on its own. */
export const isoTime = z.string().describe('ISO 8601 UTC time with milliseconds');
export const id = z.string().min(1).max(200);
