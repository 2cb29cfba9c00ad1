/** What replaces a secret in a log line. */
export const REDACTED = '[REDACTED]';

/**
 * Query parameter names whose values are secrets, compared without case, dashes, dots or
 * underscores: key, api_key, token, access_token, password, secret, auth…, and their kin.
 */
export function isSecretName(name: string): boolean {
  const bare = name.toLowerCase().replace(/[-_.\s[\]]/g, '');
  return (
    bare.startsWith('auth') ||
    /^(key|token|password|passwd|pwd|pass|secret|signature|sig|credentials?|bearer|session?key)$/.test(
      bare,
    ) ||
    /(key|token|secret|password|passwd|credentials?)$/.test(bare)
  );
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * A URL (or path) as it may be logged: the values of secret-named query parameters, and any part
 * that holds the key (raw or percent-encoded), replaced by the marker.
 */
export function redactUrl(url: string, apiKey: string): string {
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const safePath = decoded(path).includes(apiKey) ? REDACTED : path;
  if (mark < 0) return safePath;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      const value = equals < 0 ? '' : pair.slice(equals + 1);
      if (decoded(name).includes(apiKey)) return REDACTED;
      if (equals < 0) return pair;
      return isSecretName(decoded(name)) || decoded(value).includes(apiKey)
        ? `${name}=${REDACTED}`
        : pair;
    })
    .join('&');
  return `${safePath}?${query}`;
}

const URL_LIKE = /^(\/|[a-z][a-z0-9+.-]*:\/\/)[^\s]*\?/i;

/**
 * A structured log line with every secret replaced: the key wherever it appears, and the query
 * secrets of every URL-looking string. Returns the line unchanged when nothing was found.
 */
export function redactLogLine(line: string, apiKey: string): string {
  if (!line.includes('?') && !(apiKey && line.includes(apiKey))) return line;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return apiKey ? line.replaceAll(apiKey, REDACTED) : line;
  }
  let changed = false;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      let next = apiKey ? value.replaceAll(apiKey, REDACTED) : value;
      if (URL_LIKE.test(next)) next = redactUrl(next, apiKey || '\u0000');
      if (next !== value) changed = true;
      return next;
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  const clean = walk(parsed);
  return changed ? `${JSON.stringify(clean)}\n` : line;
}
