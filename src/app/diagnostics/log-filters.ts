import { withQuery } from '../core/api-query';
import { LogEntry, LogLevel } from '../../../contract/operations';

export interface LogFilters {
  /** Minimum level; empty for every level. */
  level: LogLevel | '';
  session: string;
  q: string;
}

export const NO_LOG_FILTERS: LogFilters = { level: '', session: '', q: '' };
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

/** The filter part of a logs query: only what the person chose, trimmed. */
export function logFilterParams(filters: LogFilters): Record<string, string> {
  const params: Record<string, string> = {};
  if (filters.level) params['level'] = filters.level;
  if (filters.session.trim()) params['session'] = filters.session.trim();
  if (filters.q.trim()) params['q'] = filters.q.trim();
  return params;
}

/** A page of logs: the filters, a page size, and the cursor for older lines. */
export function logPageParams(
  filters: LogFilters,
  before: string | null,
  limit: number,
): Record<string, string> {
  return { ...logFilterParams(filters), limit: String(limit), ...(before ? { before } : {}) };
}

/** The live tail's URL with the same filters (the key travels in a header, never here). */
export function logStreamUrl(filters: LogFilters): string {
  return withQuery('/api/logs/stream', logFilterParams(filters));
}

/**
 * A request for a file of the console (script, style, font, icon) rather than the API: routine,
 * so the log view hides it unless asked.
 */
export function isStaticAssetRequest(log: Pick<LogEntry, 'msg' | 'data'>): boolean {
  if (log.msg !== 'request completed' && log.msg !== 'incoming request') return false;
  const request = log.data['req'];
  const url =
    request && typeof request === 'object' ? (request as Record<string, unknown>)['url'] : null;
  return typeof url === 'string' && !url.startsWith('/api/');
}
