import { isAgentToolName } from '../../../contract/mcp.js';

/** An error of a listing whose message is Relais' own words, safe to show and to store. */
export class ListingError extends Error {}

/** Why a listed tool's name cannot be passed on to an agent, or null. */
export function toolNameProblem(name: string): string | null {
  if (isAgentToolName(name)) return null;
  return 'the name is not 1 to 64 letters, digits, "_" or "-"';
}

/**
 * A short reason for a failed listing that never repeats what the server (or any page at its
 * address) answered: a 404 page can hold a token. Relais' own errors pass; an HTTP status is kept
 * as its number; a network error as its code; anything else becomes a fixed phrase.
 */
export function cleanListingReason(error: unknown): string {
  if (error instanceof ListingError) return error.message;
  const message = error instanceof Error ? error.message : '';
  // The SDK's HTTP errors carry the status as a number in `code`; their message holds the body.
  const status = (error as { code?: unknown } | null)?.code;
  if (typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599)
    return `the server answered HTTP ${status}`;
  const code = networkCode(error);
  if (code) return `the connection failed (${code})`;
  if (/redirect/i.test(message))
    return 'the server answered with a redirect, which is not followed';
  if (/over \d+ bytes|exceeded maximum size/.test(message)) return 'the server answered too much';
  return 'the server did not answer as an MCP server';
}

/** ECONNREFUSED, ENOENT (no such command)…: the first errno-like code in the error or its causes. */
function networkCode(error: unknown): string | null {
  for (let at = error, depth = 0; at && depth < 4; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z0-9_]{2,30}$/.test(code)) return code;
    at = (at as { cause?: unknown }).cause;
  }
  return null;
}
