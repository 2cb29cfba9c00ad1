import { registerPageCommands } from '../palette/page-commands';
import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  computed,
  inject,
  signal,
} from '@angular/core';
import { FormControl, FormGroup, ReactiveFormsModule } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { MatSelectModule } from '@angular/material/select';
import { MatSlideToggleModule } from '@angular/material/slide-toggle';
import { PageLink } from '../core/routing/page-link';
import { Subscription } from 'rxjs';
import { LogEntry, LogLevel } from '../../../contract/operations';
import { CursorPager } from '../shared/cursor-pager';
import { Timestamp } from '../shared/timestamp';
import { DiagnosticsApi } from './diagnostics-api';
import { LOG_LEVELS, LogFilters, NO_LOG_FILTERS, isStaticAssetRequest } from './log-filters';
import { logSummary } from './log-summary';

const PAGE_SIZE = 100;
const MAX_LINES = 2000;

interface LogRow {
  log: LogEntry;
  ms: number;
  json: string;
  summary: string;
}

/** The component's words, in the console's language. */
const TEXT = {
  logs: $localize`Logs`,
  liveTail: $localize`Live tail`,
  following: $localize`following`,
  connecting: $localize`connecting…`,
  logFilters: $localize`Log filters`,
  minimumLevel: $localize`Minimum level`,
  anyLevel: $localize`Any level`,
  session: $localize`Session`,
  text: $localize`Text`,
  applyFilters: $localize`Apply filters`,
  clear: $localize`Clear`,
  showRequestsForThe: (hiddenAssets: unknown) =>
    $localize`Show requests for the console's files${hiddenAssets}:hiddenAssets:`,
  theLogsCouldNot: (message: unknown, code: unknown) =>
    $localize`The logs could not be loaded: ${message}:message: (${code}:code:)`,
  retry: $localize`Retry`,
  noLogLineMatches: (tailing: unknown) =>
    $localize`No log line matches these filters${tailing}:tailing:`,
  logLinesNewestFirst: $localize`Log lines, newest first`,
  openSession: $localize`Open session`,
  copyLogLine: (id: unknown) => $localize`Copy log line ${id}:id:`,
  copy: $localize`Copy`,
  linesShown: (rows: unknown) => $localize`${rows}:rows: lines shown`,
  loading: $localize`Loading…`,
  loadOlderLines: $localize`Load older lines`,
  thisIsTheOldest: $localize`This is the oldest line kept.`,
  loadingLogs: $localize`Loading logs…`,
};

/** The daemon's logs: filters, older pages, a live tail, and a copy button per line. */
@Component({
  selector: 'app-log-viewer',
  imports: [
    ReactiveFormsModule,
    PageLink,
    MatButtonModule,
    MatFormFieldModule,
    MatInputModule,
    MatSelectModule,
    MatSlideToggleModule,
    Timestamp,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './log-viewer.html',
  styleUrl: './log-viewer.scss',
})
export class LogViewer {
  protected readonly t = TEXT;
  private readonly api = inject(DiagnosticsApi);
  protected readonly levels = LOG_LEVELS;

  protected readonly form = new FormGroup({
    level: new FormControl<LogLevel | ''>('', { nonNullable: true }),
    session: new FormControl('', { nonNullable: true }),
    q: new FormControl('', { nonNullable: true }),
  });

  private readonly applied = signal<LogFilters>(NO_LOG_FILTERS);
  private readonly pager = new CursorPager<LogEntry>(
    (before) => this.api.logs(this.applied(), before, PAGE_SIZE),
    mergeNewestFirst,
  );
  private readonly lines = this.pager.items;
  protected readonly cursor = this.pager.cursor;
  protected readonly loading = this.pager.loading;
  protected readonly error = this.pager.error;
  protected readonly tailing = signal(false);
  protected readonly tailConnected = signal(false);
  protected readonly announcement = signal('');
  private tail: Subscription | null = null;

  /** Requests for the console's own files are routine; they are hidden unless asked for. */
  protected readonly showAssets = signal(false);
  protected readonly hiddenAssets = computed(
    () => (this.lines() ?? []).filter((log) => isStaticAssetRequest(log)).length,
  );
  protected readonly rows = computed<LogRow[] | null>(
    () =>
      this.lines()
        ?.filter((log) => this.showAssets() || !isStaticAssetRequest(log))
        .map((log) => ({
          log,
          ms: Date.parse(log.time),
          json: JSON.stringify(log.data),
          summary: logSummary(log.data),
        })) ?? null,
  );

  constructor() {
    registerPageCommands(() => [
      {
        id: 'logs-tail',
        group: $localize`Logs`,
        label: this.tailing()
          ? $localize`Stop following the logs`
          : $localize`Follow the logs live`,
        keywords: 'tail live log',
        run: () => this.toggleTail(!this.tailing()),
      },
      {
        id: 'logs-refresh',
        group: $localize`Logs`,
        label: $localize`Reload the logs`,
        keywords: 'refresh log',
        run: () => void this.reload(),
      },
      {
        id: 'logs-clear',
        group: $localize`Logs`,
        label: $localize`Clear the log filters`,
        keywords: 'reset filter log',
        run: () => this.clear(),
      },
    ]);
    inject(DestroyRef).onDestroy(() => this.stopTail());
    void this.reload();
  }

  protected apply(): void {
    this.applied.set(this.form.getRawValue());
    void this.reload();
    if (this.tailing()) this.startTail();
  }

  protected clear(): void {
    this.form.setValue(NO_LOG_FILTERS);
    this.apply();
  }

  protected reload(): Promise<void> {
    return this.pager.reload();
  }

  protected older(): Promise<void> {
    return this.pager.older();
  }

  protected toggleTail(on: boolean): void {
    this.tailing.set(on);
    if (on) this.startTail();
    else this.stopTail();
    this.announcement.set(
      on ? $localize`Live tail on: new lines appear at the top.` : $localize`Live tail off.`,
    );
  }

  private startTail(): void {
    this.stopTail();
    this.tail = this.api.tail(this.applied()).subscribe((message) => {
      if (message.kind === 'status') this.tailConnected.set(message.connected);
      else if (message.kind === 'line')
        this.pager.update((shown) => mergeNewestFirst([message.line], shown).slice(0, MAX_LINES));
    });
  }

  private stopTail(): void {
    this.tail?.unsubscribe();
    this.tail = null;
    this.tailConnected.set(false);
  }

  protected async copy(row: LogRow): Promise<void> {
    try {
      await navigator.clipboard.writeText(row.json);
      this.announcement.set($localize`Line ${row.log.id} copied.`);
    } catch {
      // The clipboard can be refused (permissions, insecure context); say so rather than fail silently.
      this.announcement.set(
        $localize`The clipboard refused the copy; select the line text instead.`,
      );
    }
  }
}

/** Lines newest first without duplicates (the tail and a page may both carry a line). */
export function mergeNewestFirst(a: readonly LogEntry[], b: readonly LogEntry[]): LogEntry[] {
  const byId = new Map<number, LogEntry>();
  for (const log of [...a, ...b]) byId.set(log.id, log);
  return [...byId.values()].sort((x, y) => y.id - x.id);
}
