import { readConfined } from '../fs/confined-files.js';

/** No login writes a credentials file this large: above it, the file is not read. */
const MAX_CREDENTIALS_BYTES = 64 * 1024;

/**
 * The `claudeAiOauth` object of a Claude login's `.credentials.json`, read the way every file of an
 * agent's folder is (no link followed, regular file, no wait on a FIFO, capped): the folder is the
 * agent's to write, so a planted link or FIFO there must neither leak another file nor hang a poll.
 */
export function readClaudeOAuth(configDir: string): Record<string, unknown> | null {
  try {
    const read = readConfined(configDir, '.credentials.json', MAX_CREDENTIALS_BYTES);
    if (!('bytes' in read)) return null;
    const parsed = JSON.parse(read.bytes.toString('utf8')) as { claudeAiOauth?: unknown } | null;
    const oauth = parsed?.claudeAiOauth;
    return typeof oauth === 'object' && oauth !== null ? (oauth as Record<string, unknown>) : null;
  } catch {
    return null; // Unreadable or not JSON: no login to use.
  }
}
