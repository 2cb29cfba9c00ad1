import { registerPageCommands } from '../palette/page-commands';
import { sessionName, shortId } from './session-name';
import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatSelectModule } from '@angular/material/select';
import { PageLink } from '../core/routing/page-link';
import { ImportProgress, ImportReport, Session, SessionState } from '../../../contract/api';
import { toApiFailure } from '../core/api-error';
import { SubscriptionsApi } from '../subscriptions/subscriptions-api';
import { formatBytes } from '../shared/bytes';
import { SessionsApi } from './sessions-api';
import { LiveStore } from '../core/live-store';
import { QuotaCards } from '../quotas/quota-cards';
import { Now } from '../shared/now';
import { StateChip } from '../shared/state-chip';
import { countdown, elapsed, fullDateTime } from '../shared/time-format';

interface Row {
  session: Session;
  name: string;
  shortId: string;
  /** An imported conversation's date (it may be months old); null: its age is shown. */
  importedAge: string | null;
  createdMs: number;
  deadlineMs: number;
  started: string;
  size: string;
}

/** The component's words, in the console's language. */
const TEXT = {
  sessions: $localize`Sessions`,
  importingHistory: $localize`Importing history…`,
  importHistory: $localize`Import history`,
  launchASession: $localize`Launch a session`,
  historyImport: $localize`History import`,
  importOf: (subscription: unknown) => $localize`Import of ${subscription}:subscription:`,
  filters: $localize`Filters`,
  state: $localize`State`,
  anyState: $localize`Any state`,
  subscription: $localize`Subscription`,
  anySubscription: $localize`Any subscription`,
  origin: $localize`Origin`,
  relaisAndImported: $localize`Relais and imported`,
  launchedByRelais: $localize`Launched by Relais`,
  importedBeforeOrOutside: $localize`Imported (before or outside Relais)`,
  application: $localize`Application`,
  anyApplication: $localize`Any application`,
  loadingSessions: $localize`Loading sessions…`,
  sessionsCouldNotBe: (message: unknown, code: unknown) =>
    $localize`Sessions could not be loaded: ${message}:message: (${code}:code:)`,
  retry: $localize`Retry`,
  noSessionsYetLaunch: $localize`No sessions yet. Launch one by hand, or let a tool of your machine launch it through the API.`,
  sessionsNewestFirstUpdated: $localize`Sessions, newest first, updated live`,
  imported: $localize`imported`,
  waiting: (pending_permissions: unknown) =>
    $localize`${pending_permissions}:pending_permissions: waiting`,
  noSessionMatchesThese: $localize`No session matches these filters.`,
  clearFilters: $localize`Clear filters`,
};

/** An import under way (or the last one), as a person reads it. */
interface ImportLine {
  subscription: string;
  running: boolean;
  text: string;
  percent: number;
}

const STATES: readonly SessionState[] = [
  'starting',
  'idle',
  'working',
  'waiting',
  'stopping',
  'ended',
];

/** The table's columns and their share of its width (a fixed layout: see the stylesheet). */
const COLUMNS: readonly { label: string; width: string }[] = [
  { label: $localize`Session`, width: '16%' },
  { label: $localize`State`, width: '7%' },
  { label: $localize`Subscription`, width: '8.5%' },
  { label: $localize`Agent`, width: '5.5%' },
  { label: $localize`Model`, width: '8.5%' },
  { label: $localize`App`, width: '8.5%' },
  { label: $localize`Working directory`, width: '13%' },
  { label: $localize`Started`, width: '6.5%' },
  { label: $localize`Time left`, width: '6.5%' },
  { label: $localize`Prompts`, width: '6.5%' },
  { label: $localize`Queued`, width: '6%' },
  { label: $localize`Transcript`, width: '7.5%' },
];

/** The live dashboard: every session from the global stream, filterable, no polling. */
@Component({
  selector: 'app-session-list-page',
  imports: [PageLink, MatButtonModule, MatFormFieldModule, MatSelectModule, StateChip, QuotaCards],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './session-list-page.html',
  styleUrl: './session-list-page.scss',
})
export class SessionListPage {
  protected readonly t = TEXT;
  protected readonly live = inject(LiveStore);
  private readonly now = inject(Now);
  private readonly sessionsApi = inject(SessionsApi);
  private readonly subscriptionsApi = inject(SubscriptionsApi);

  protected readonly states = STATES;
  protected readonly columns = COLUMNS;
  protected readonly stateFilter = signal<string>('');
  protected readonly subscriptionFilter = signal<string>('');
  protected readonly appFilter = signal<string>('');
  protected readonly originFilter = signal<string>('');
  protected readonly importing = signal(false);
  protected readonly importOutcome = signal('');
  protected readonly importLines = computed<ImportLine[]>(() =>
    this.live.imports().map((progress) => importLine(progress)),
  );

  protected readonly subscriptions = computed(() =>
    distinct(this.live.sessions().map((s) => s.subscription_id)),
  );
  protected readonly apps = computed(() => distinct(this.live.sessions().map((s) => s.app)));

  protected readonly filtered = computed(() => {
    const state = this.stateFilter();
    const subscription = this.subscriptionFilter();
    const app = this.appFilter();
    const origin = this.originFilter();
    return this.live
      .sessions()
      .filter(
        (s) =>
          (!state || s.state === state) &&
          (!subscription || s.subscription_id === subscription) &&
          (!app || s.app === app) &&
          (!origin || s.origin === origin),
      );
  });

  /** Built when the sessions change, not at each tick of the clock (see age and left). */
  protected readonly rows = computed<Row[]>(() =>
    this.filtered().map((session) => {
      const createdMs = Date.parse(session.created_at);
      const started = fullDateTime(createdMs);
      return {
        session,
        name: sessionName(session),
        shortId: shortId(session.id),
        // An imported conversation may be months old: its date says more than its age.
        importedAge: session.origin === 'imported' ? started.slice(0, 16) : null,
        createdMs,
        deadlineMs: Date.parse(session.deadline_at),
        started,
        size: session.transcript_bytes === null ? '—' : formatBytes(session.transcript_bytes),
      };
    }),
  );

  /** On the wall clock's minute (Now.minute), with every other minute text of the page. */
  protected age(row: Row): string {
    return row.importedAge ?? elapsed(this.now.minute() - row.createdMs);
  }

  protected left(row: Row): string {
    return row.session.state === 'ended' ? '—' : countdown(row.deadlineMs - this.now.minute());
  }

  constructor() {
    // The live list holds the newest sessions; imported conversations may be older: read them too.
    void this.loadImported();
    registerPageCommands(() => [
      {
        id: 'sessions-import',
        group: $localize`Sessions`,
        label: $localize`Import the history of every subscription`,
        keywords: 'rescan transcripts history imported',
        run: () => void this.importAll(),
      },
      {
        id: 'sessions-clear',
        group: $localize`Sessions`,
        label: $localize`Clear the session filters`,
        keywords: 'reset filter',
        run: () => this.clearFilters(),
      },
      ...this.states.map((state) => ({
        id: 'sessions-state-' + state,
        group: $localize`Sessions`,
        label: $localize`Show only ${state} sessions`,
        keywords: 'filter state',
        run: () => this.stateFilter.set(state),
      })),
    ]);
  }

  protected clearFilters(): void {
    this.stateFilter.set('');
    this.subscriptionFilter.set('');
    this.appFilter.set('');
    this.originFilter.set('');
  }

  /** Rescans every subscription's own transcripts, one after the other; progress comes live. */
  protected async importAll(): Promise<void> {
    if (this.importing()) return;
    this.importing.set(true);
    this.importOutcome.set('');
    try {
      const reports: ImportReport[] = [];
      for (const subscription of await this.subscriptionsApi.list())
        reports.push(await this.sessionsApi.importHistory(subscription.id));
      this.importOutcome.set(importSummary(reports));
      await this.loadImported();
    } catch (error: unknown) {
      this.importOutcome.set($localize`The import failed: ${toApiFailure(error).message}`);
    } finally {
      this.importing.set(false);
    }
  }

  private async loadImported(): Promise<void> {
    try {
      for (const session of await this.sessionsApi.list({ origin: 'imported' }, 500))
        this.live.upsertSession(session);
    } catch {
      // The live list says what failed to load; imported ones come with the next import.
    }
  }
}

function distinct(values: string[]): string[] {
  return [...new Set(values)].sort();
}

function importLine(progress: ImportProgress): ImportLine {
  const running = progress.state === 'running';
  const done = formatBytes(progress.bytes_done);
  const total = formatBytes(progress.bytes_total);
  const bytes = $localize`${done}:done: of ${total}:total:`;
  const rate = running ? ` · ${formatBytes(progress.bytes_per_second)}/s` : '';
  const unreadable = progress.errors;
  const errors = unreadable ? ' · ' + $localize`${unreadable}:count: unreadable` : '';
  const files = progress.files_done;
  const filesTotal = progress.files_total;
  const turns = progress.turns;
  return {
    subscription: progress.subscription_id,
    running,
    text: running
      ? $localize`Importing: files ${files}:files: / ${filesTotal}:filesTotal: · ${bytes}:bytes:${rate}:rate: · ${turns}:turns: responses counted${errors}:errors:`
      : $localize`Imported: files ${files}:files: / ${filesTotal}:filesTotal: · ${bytes}:bytes:${rate}:rate: · ${turns}:turns: responses counted${errors}:errors:`,
    percent: progress.bytes_total
      ? Math.round((100 * progress.bytes_done) / progress.bytes_total)
      : 100,
  };
}

function importSummary(reports: ImportReport[]): string {
  const sum = (pick: (r: ImportReport) => number): number =>
    reports.reduce((total, report) => total + pick(report), 0);
  const errors = reports.flatMap((r) => r.errors);
  const unread = errors.length;
  const path = errors[0]?.path;
  const why = errors[0]?.error;
  const problems = unread
    ? $localize`${unread}:count: could not be read (first: ${path}:path:: ${why}:error:).`
    : '';
  const clamped = sum((r) => r.clamped);
  const bounded = clamped
    ? $localize`${clamped}:count: implausible values brought within bounds.`
    : '';
  const files = sum((r) => r.files);
  const read = sum((r) => r.files_read);
  const sessions = sum((r) => r.sessions);
  const turns = sum((r) => r.turns);
  const malformed = sum((r) => r.malformed);
  const rescanned = $localize`History rescanned: ${files}:files: transcripts, ${read}:read: with news, ${sessions}:sessions: new conversations, ${turns}:turns: responses counted, ${malformed}:malformed: malformed lines kept.`;
  return [rescanned, bounded, problems].filter(Boolean).join(' ');
}
