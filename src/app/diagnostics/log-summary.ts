/** A few words about a structured log line beyond its message: the request, status or error. */
export function logSummary(data: Record<string, unknown>): string {
  const parts: string[] = [];
  const req = record(data['req']);
  const res = record(data['res']);
  const err = record(data['err']);
  if (req && typeof req['method'] === 'string' && typeof req['url'] === 'string')
    parts.push(`${req['method']} ${req['url']}`);
  if (res && typeof res['statusCode'] === 'number') parts.push(`status ${res['statusCode']}`);
  if (typeof data['responseTime'] === 'number')
    parts.push(`${Math.round(data['responseTime'])} ms`);
  if (err && typeof err['message'] === 'string') parts.push(err['message']);
  return parts.join(' · ');
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
