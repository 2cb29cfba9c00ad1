/**
 * Line numbers for JSON values, so a rejected rules file can point at the offending line
 * (JSON.parse gives neither lines nor value positions).
 */

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** Key of a value: its path segments joined by '/' (`rules/3/pattern`). */
export function locationKey(segments: readonly PropertyKey[]): string {
  return segments.map(String).join('/');
}

/** Map from value path to the 1-based line where the value (or its key) starts. Throws JsonSyntaxError. */
export function locateJson(text: string): Map<string, number> {
  const scanner = new Scanner(text);
  scanner.value([]);
  scanner.ws();
  if (scanner.pos < text.length) scanner.fail('unexpected text after the end of the document');
  return scanner.lines;
}

class Scanner {
  pos = 0;
  line = 1;
  readonly lines = new Map<string, number>();

  constructor(private readonly text: string) {}

  fail(message: string): never {
    throw new JsonSyntaxError(`${message} (line ${this.line})`, this.line);
  }

  ws(): void {
    while (this.pos < this.text.length) {
      const c = this.text[this.pos];
      if (c === '\n') this.line += 1;
      else if (c !== ' ' && c !== '\t' && c !== '\r') return;
      this.pos += 1;
    }
  }

  private expect(ch: string): void {
    this.ws();
    if (this.text[this.pos] !== ch) this.fail(`expected '${ch}'`);
    this.pos += 1;
  }

  value(at: PropertyKey[]): void {
    this.ws();
    const key = locationKey(at);
    if (!this.lines.has(key)) this.lines.set(key, this.line);
    const c = this.text[this.pos];
    if (c === '{') this.object(at);
    else if (c === '[') this.array(at);
    else if (c === '"') this.string();
    else if (c !== undefined && /[-0-9]/.test(c))
      this.literal(/-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y, 'number');
    else this.literal(/true|false|null/y, 'value');
  }

  private literal(re: RegExp, what: string): void {
    re.lastIndex = this.pos;
    const m = re.exec(this.text);
    if (!m) this.fail(`invalid ${what}`);
    this.pos += m[0].length;
  }

  private string(): string {
    const start = this.pos + 1;
    this.pos += 1;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos];
      if (c === '"') {
        this.pos += 1;
        try {
          return JSON.parse(this.text.slice(start - 1, this.pos)) as string;
        } catch {
          return this.fail('invalid escape in a string');
        }
      }
      if (c === '\n') this.fail('line break inside a string');
      this.pos += c === '\\' ? 2 : 1;
    }
    return this.fail('unterminated string');
  }

  private object(at: PropertyKey[]): void {
    this.pos += 1;
    this.ws();
    if (this.text[this.pos] === '}') {
      this.pos += 1;
      return;
    }
    for (;;) {
      this.ws();
      if (this.text[this.pos] !== '"') this.fail('expected a quoted key');
      const keyLine = this.line;
      const name = this.string();
      this.lines.set(locationKey([...at, name]), keyLine);
      this.expect(':');
      this.value([...at, name]);
      this.ws();
      const c = this.text[this.pos];
      this.pos += 1;
      if (c === '}') return;
      if (c !== ',') this.fail("expected ',' or '}'");
    }
  }

  private array(at: PropertyKey[]): void {
    this.pos += 1;
    this.ws();
    if (this.text[this.pos] === ']') {
      this.pos += 1;
      return;
    }
    for (let i = 0; ; i += 1) {
      this.value([...at, i]);
      this.ws();
      const c = this.text[this.pos];
      this.pos += 1;
      if (c === ']') return;
      if (c !== ',') this.fail("expected ',' or ']'");
    }
  }
}
