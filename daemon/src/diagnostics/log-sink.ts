import type { LogEntry, LogLevel } from '../../../contract/operations.js';
import type { Db } from '../db/database.js';
import { nowIso } from '../ids.js';
import { redactLogLine } from './redact.js';

export const LEVELS: Record<LogLevel, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
};
const NAMES = new Map(Object.entries(LEVELS).map(([name, value]) => [value, name as LogLevel]));

export function levelName(value: number): LogLevel {
  return NAMES.get(value) ?? (value >= 60 ? 'fatal' : 'info');
}

type Listener = (entry: LogEntry) => void;

/**
 * Where the daemon's structured (pino) log lines go: standard output as always, and a bounded
 * ring in SQLite that the logs API reads. The logger redacts what it knows (the Authorization
 * header, query secrets of the request URL); the sink removes the API key and URL query secrets
 * from every line once more, before either destination sees it.
 */
export class LogSink {
  private db: Db | null = null;
  private pending: {
    time_ms: number;
    level: number;
    msg: string;
    session_id: string | null;
    line: string;
  }[] = [];
  private scheduled = false;
  private writes = 0;
  private readonly listeners = new Set<Listener>();
  /** Lines below this level are kept for the logs API but not echoed to the terminal. */
  private echoLevel = 0;
  private apiKey = '';

  constructor(
    private readonly keep = 20_000,
    private readonly echo: (line: string) => void = (line) => process.stdout.write(line),
  ) {}

  attach(db: Db): void {
    this.db = db;
  }

  /** Echoes to the terminal only lines of at least this pino level (the ring keeps them all). */
  echoFrom(level: number): void {
    this.echoLevel = level;
  }

  /** The key no line may carry. */
  protect(apiKey: string): void {
    this.apiKey = apiKey;
  }

  /** pino's destination interface. */
  write(raw: string): void {
    const line = redactLogLine(raw, this.apiKey);
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(line) as Record<string, unknown>;
    } catch {
      this.echo(line);
      return; // Not a structured line: standard output has it.
    }
    const level = typeof parsed['level'] === 'number' ? parsed['level'] : 30;
    if (level >= this.echoLevel) this.echo(line);
    const session = typeof parsed['session'] === 'string' ? parsed['session'] : null;
    this.pending.push({
      time_ms: typeof parsed['time'] === 'number' ? parsed['time'] : Date.now(),
      level,
      msg: typeof parsed['msg'] === 'string' ? parsed['msg'] : '',
      session_id: session,
      line: line.trimEnd(),
    });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  flush(): void {
    this.scheduled = false;
    const db = this.db;
    if (!db || !db.open || this.pending.length === 0) return;
    const batch = this.pending.splice(0);
    const insert = db.prepare(
      'INSERT INTO logs (time_ms, level, msg, session_id, line) VALUES (@time_ms, @level, @msg, @session_id, @line)',
    );
    const entries: LogEntry[] = [];
    db.transaction(() => {
      for (const row of batch) {
        const id = Number(insert.run(row).lastInsertRowid);
        entries.push(toEntry({ id, ...row }));
      }
    })();
    this.writes += batch.length;
    if (this.writes > this.keep / 10) {
      this.writes = 0;
      db.prepare('DELETE FROM logs WHERE id <= (SELECT MAX(id) FROM logs) - ?').run(this.keep);
    }
    for (const entry of entries) for (const listener of this.listeners) listener(entry);
  }
}

export function toEntry(row: {
  id: number;
  time_ms: number;
  level: number;
  msg: string;
  session_id: string | null;
  line: string;
}): LogEntry {
  return {
    id: row.id,
    time: nowIso(row.time_ms),
    level: levelName(row.level),
    msg: row.msg,
    session_id: row.session_id,
    data: JSON.parse(row.line) as Record<string, unknown>,
  };
}
