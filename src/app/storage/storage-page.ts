import { WhenPipe } from '../shared/when.pipe';
import { LatestAsk } from '../shared/latest-ask';
import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { provideEchartsCore } from 'ngx-echarts';
import { PageLink } from '../core/routing/page-link';
import { firstValueFrom } from 'rxjs';
import { ConversationStorage, StorageReport } from '../../../contract/operations';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { exactBytes, formatBytes, percentOf } from '../shared/bytes';
import { CategoryChart } from './category-chart';
import { ConfirmDialog, ConfirmData } from '../shared/confirm-dialog';
import { CATEGORY_LABELS, CONVERSATION_LABELS } from './storage-labels';
import { stateLabel } from '../shared/state-label';
import { StorageApi } from './storage-api';
import { registerPageCommands } from '../palette/page-commands';
import { chipClasses } from '../shared/chip-tone';

interface CategoryRow {
  key: string;
  label: string;
  size: string;
  exact: string;
  share: string;
}

/** The component's words, in the console's language. */
const TEXT = {
  storage: $localize`Storage`,
  refresh: $localize`Refresh`,
  recycling: $localize`Recycling…`,
  runRecyclingNow: $localize`Run recycling now`,
  theStorageReportCould: (message: unknown, code: unknown) =>
    $localize`The storage report could not be loaded: ${message}:message: (${code}:code:)`,
  retry: $localize`Retry`,
  inTheDatabase: $localize`In the database`,
  bytesInUse: (total_bytes: unknown) => $localize`${total_bytes}:total_bytes: bytes in use`,
  files: $localize`Files`,
  databaseFile: $localize`Database file`,
  writeAheadLog: $localize`Write-ahead log`,
  recycling2: $localize`Recycling`,
  nextRun: $localize`Next run`,
  notScheduled: $localize`not scheduled`,
  lastRun: $localize`Last run`,
  compressedDeleted: (compressed: unknown, deleted: unknown) =>
    $localize`· ${compressed}:compressed: compressed, ${deleted}:deleted: deleted`,
  never: $localize`never`,
  rules: $localize`Rules`,
  compressDaysAfterThe: (compress_after_days: unknown, delete_after_days: unknown) =>
    $localize`compress ${compress_after_days}:compress_after_days: days after the end, delete after ${delete_after_days}:delete_after_days: days`,
  byCategory: $localize`By category`,
  bytesByCategory: $localize`Bytes by category`,
  bytesByCategoryThey: $localize`Bytes by category; they add up to the total in the database`,
  category: $localize`Category`,
  size: $localize`Size`,
  bytes: $localize`Bytes`,
  share: $localize`Share`,
  total: $localize`Total`,
  bySubscription: $localize`By subscription`,
  noConversationStoredYet: $localize`No conversation stored yet.`,
  bytesBySubscription: $localize`Bytes by subscription`,
  conversationsAndBytesBy: $localize`Conversations and bytes by subscription`,
  subscription: $localize`Subscription`,
  conversations: $localize`Conversations`,
  stored: $localize`Stored`,
  eventText: $localize`Event text`,
  conversationsLargestFirst: $localize`Conversations, largest first`,
  noConversationStoredYet2: $localize`No conversation stored yet. Sessions appear here once they have events.`,
  conversationsWithTheirSize: $localize`Conversations with their size and recycling dates`,
  session: $localize`Session`,
  state: $localize`State`,
  storedAs: $localize`Stored as`,
  events: $localize`Events`,
  compressOn: $localize`Compress on`,
  deleteOn: $localize`Delete on`,
  actions: $localize`Actions`,
  openSession: $localize`Open session`,
  exactBytes: (count: unknown) => $localize`${count}:count: bytes`,
  compressNow: (id: unknown) => $localize`Compress now ${id}:session:`,
  compressNow2: $localize`Compress now`,
  deleteNow: (id: unknown) => $localize`Delete now ${id}:session:`,
  deleteNow2: $localize`Delete now`,
  onlyEndedSessionsCan: $localize`Only ended sessions can be compressed or deleted; a compressed conversation still reads back as it was.`,
  loadingTheStorageReport: $localize`Loading the storage report…`,
};

/** Where the bytes go, what recycling will do and when, and per-conversation actions. */
@Component({
  selector: 'app-storage-page',
  imports: [WhenPipe, PageLink, MatButtonModule, CategoryChart],
  // The chart library loads with the first chart, not with the page.
  providers: [
    provideEchartsCore({ echarts: () => import('./echarts-setup').then((m) => m.echarts) }),
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './storage-page.html',
  styleUrl: './storage-page.scss',
})
export class StoragePage {
  protected readonly t = TEXT;
  protected readonly stateLabel = stateLabel;
  protected readonly conversationLabels = CONVERSATION_LABELS;
  protected readonly chipClasses = chipClasses;
  private readonly api = inject(StorageApi);
  private readonly dialog = inject(MatDialog);

  protected readonly report = signal<StorageReport | null>(null);
  /** A read answered after a newer one (Refresh clicked twice) is not shown. */
  private readonly reading = new LatestAsk();
  protected readonly error = signal<ApiFailure | null>(null);
  protected readonly actionError = signal<ApiFailure | null>(null);
  protected readonly busy = signal<string | null>(null);
  protected readonly announcement = signal('');
  protected readonly formatBytes = formatBytes;
  protected readonly exactBytes = exactBytes;

  protected readonly categoryRows = computed<CategoryRow[]>(() => {
    const report = this.report();
    if (!report) return [];
    return report.categories.map((c) => ({
      key: c.category,
      label: CATEGORY_LABELS[c.category],
      size: formatBytes(c.bytes),
      exact: exactBytes(c.bytes),
      share: percentOf(c.bytes, report.total_bytes),
    }));
  });

  constructor() {
    registerPageCommands(() => [
      {
        id: 'storage-refresh',
        group: $localize`Storage`,
        label: $localize`Refresh the storage figures`,
        keywords: 'reload disk',
        run: () => void this.load(),
      },
      {
        id: 'storage-recycle',
        group: $localize`Storage`,
        label: $localize`Recycle the database (reclaim free space)`,
        keywords: 'vacuum compact',
        run: () => void this.recycle(),
      },
    ]);
    void this.load();
  }

  protected async load(): Promise<void> {
    const current = this.reading.ask();
    this.error.set(null);
    try {
      const report = await this.api.report(100);
      if (current()) this.report.set(report);
    } catch (error: unknown) {
      if (current()) this.error.set(toApiFailure(error));
    }
  }

  protected async compress(row: ConversationStorage): Promise<void> {
    await this.act(`compress:${row.session_id}`, async () => {
      await this.api.compress(row.session_id);
      return $localize`Conversation ${row.session_id} compressed.`;
    });
  }

  protected async remove(row: ConversationStorage): Promise<void> {
    const data: ConfirmData = {
      title: $localize`Delete this conversation?`,
      message: $localize`The events of session ${row.session_id} (${formatBytes(row.bytes)}) are deleted for good. Its metrics (turns, tool calls, audit) stay.`,
      confirm: $localize`Delete now`,
    };
    const confirmed = await firstValueFrom(
      this.dialog.open(ConfirmDialog, { data, autoFocus: 'first-tabbable' }).afterClosed(),
    );
    if (confirmed !== true) return;
    await this.act(`delete:${row.session_id}`, async () => {
      await this.api.remove(row.session_id);
      return $localize`Conversation ${row.session_id} deleted.`;
    });
  }

  protected async recycle(): Promise<void> {
    await this.act('recycle', async () => {
      const result = await this.api.recycle();
      return $localize`Recycling ran: ${result.compressed} compressed, ${result.deleted} deleted.`;
    });
  }

  private async act(name: string, action: () => Promise<string>): Promise<void> {
    // One action at a time (the palette's Recycle does not go through its disabled button).
    if (this.busy()) return;
    this.busy.set(name);
    this.actionError.set(null);
    try {
      this.announcement.set(await action());
      await this.load();
    } catch (error: unknown) {
      this.actionError.set(toApiFailure(error));
    } finally {
      this.busy.set(null);
    }
  }
}
