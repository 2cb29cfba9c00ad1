import type { ImportProgress, ImportReport } from '../../../contract/api.js';
import { nowIso } from '../ids.js';

const PROGRESS_EVERY_MS = 250;

/** What reading one transcript file did. */
export interface FileOutcome {
  bytes: number;
  lines: number;
  malformed: number;
  sessionCreated: boolean;
  read: boolean;
  error: string | null;
}

/**
 * One rescan of a subscription as it is told: its progress (at most every 250 ms, and at its start
 * and end when there is something to read) and the report it ends with.
 */
export class ImportRun {
  private readonly started = Date.now();
  private told = 0;
  private readonly progress: ImportProgress;
  private readonly report: ImportReport;

  constructor(
    subscriptionId: string,
    filesFound: number,
    private readonly todo: readonly { bytes: number }[],
    private readonly errors: ImportReport['errors'],
    private readonly onProgress: (progress: ImportProgress) => void,
  ) {
    this.progress = {
      subscription_id: subscriptionId,
      state: 'running',
      files_total: filesFound,
      files_done: filesFound - todo.length,
      bytes_total: todo.reduce((sum, file) => sum + file.bytes, 0),
      bytes_done: 0,
      bytes_per_second: 0,
      turns: 0,
      errors: errors.length,
      started_at: nowIso(this.started),
    };
    this.report = {
      subscription_id: subscriptionId,
      files: filesFound,
      files_read: 0,
      bytes: 0,
      lines: 0,
      malformed: 0,
      turns: 0,
      sessions: 0,
      clamped: 0,
      errors,
      duration_ms: 0,
    };
    if (todo.length) this.tell(true);
  }

  /** One file read; `turns`: the turns this run has written so far. */
  read(path: string, outcome: FileOutcome, turns: number): void {
    const { report, progress } = this;
    report.bytes += outcome.bytes;
    report.lines += outcome.lines;
    report.malformed += outcome.malformed;
    if (outcome.read) report.files_read++;
    if (outcome.sessionCreated) report.sessions++;
    if (outcome.error) this.errors.push({ path, error: outcome.error });
    progress.files_done++;
    progress.bytes_done += outcome.bytes;
    progress.turns = turns;
    progress.errors = this.errors.length;
    this.tell(false);
  }

  done(turns: number, clamped: number): ImportReport {
    this.report.turns = turns;
    this.report.clamped = clamped;
    this.progress.turns = turns;
    this.progress.state = 'done';
    if (this.todo.length) this.tell(true);
    this.report.duration_ms = Date.now() - this.started;
    return this.report;
  }

  private tell(force: boolean): void {
    const now = Date.now();
    if (!force && now - this.told < PROGRESS_EVERY_MS) return;
    this.told = now;
    this.progress.bytes_per_second = Math.round(
      (this.progress.bytes_done * 1000) / Math.max(1, now - this.started),
    );
    this.onProgress({ ...this.progress });
  }
}
