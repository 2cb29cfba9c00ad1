/** Low-level scanning helpers for the shell parser: matching closers while honouring quotes. */

/** Index just after the closing double quote that ends a string opened before `from`, or -1. */
export function skipDoubleQuoted(s: string, from: number): number {
  let j = from;
  while (j < s.length) {
    const c = s[j];
    if (c === '\\') {
      j += 2;
      continue;
    }
    if (c === '"') return j + 1;
    if (c === '$' && s[j + 1] === '(') {
      const close = findClosingParen(s, j + 2);
      if (close < 0) return -1;
      j = close + 1;
      continue;
    }
    if (c === '`') {
      const close = findBacktick(s, j + 1);
      if (close < 0) return -1;
      j = close + 1;
      continue;
    }
    j += 1;
  }
  return -1;
}

/** Index of the unescaped backtick closing a command substitution opened before `from`, or -1. */
export function findBacktick(s: string, from: number): number {
  let j = from;
  while (j < s.length) {
    if (s[j] === '\\') {
      j += 2;
      continue;
    }
    if (s[j] === '`') return j;
    j += 1;
  }
  return -1;
}

/** Index of the `)` matching an opening parenthesis just before `from`, or -1. */
export function findClosingParen(s: string, from: number): number {
  let depth = 1;
  let j = from;
  while (j < s.length) {
    const c = s[j];
    if (c === '\\') {
      j += 2;
      continue;
    }
    if (c === "'") {
      const end = s.indexOf("'", j + 1);
      if (end < 0) return -1;
      j = end + 1;
      continue;
    }
    if (c === '"') {
      const end = skipDoubleQuoted(s, j + 1);
      if (end < 0) return -1;
      j = end;
      continue;
    }
    if (c === '`') {
      const end = findBacktick(s, j + 1);
      if (end < 0) return -1;
      j = end + 1;
      continue;
    }
    if (c === '(') depth += 1;
    if (c === ')') {
      depth -= 1;
      if (depth === 0) return j;
    }
    j += 1;
  }
  return -1;
}

/** Index of the `}` closing a `${` parameter expansion opened before `from`, or -1. */
export function findClosingBrace(s: string, from: number): number {
  let depth = 1;
  for (let j = from; j < s.length; j += 1) {
    const c = s[j];
    if (c === '\\') {
      j += 1;
      continue;
    }
    if (c === '{') depth += 1;
    if (c === '}') {
      depth -= 1;
      if (depth === 0) return j;
    }
  }
  return -1;
}

/** Bash's $'…' quoting: the common escapes only. Returns the value and the index after the closing quote. */
export function readAnsiC(s: string, from: number): { value: string; end: number } | null {
  const escapes: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    '\\': '\\',
    "'": "'",
    '"': '"',
    '0': '\0',
    e: '\x1b',
    a: '\x07',
  };
  let value = '';
  let j = from;
  while (j < s.length) {
    const c = s[j];
    if (c === "'") return { value, end: j + 1 };
    if (c === '\\' && j + 1 < s.length) {
      const next = s[j + 1];
      const hex = next === 'x' ? /^[0-9a-fA-F]{1,2}/.exec(s.slice(j + 2, j + 4)) : null;
      if (hex) {
        value += String.fromCharCode(parseInt(hex[0], 16));
        j += 2 + hex[0].length;
        continue;
      }
      value += escapes[next] ?? `\\${next}`;
      j += 2;
      continue;
    }
    value += c;
    j += 1;
  }
  return null;
}

export const REDIRECT_RE = /(\d*)(&>>|&>|>>|>\||>&|<<<|<<-|<<|<&|<>|>|<)/y;

export function operatorLength(s: string, i: number): number {
  const two = s.slice(i, i + 2);
  return two === '&&' || two === '||' || two === ';;' || two === '|&' || two === ';&' ? 2 : 1;
}
