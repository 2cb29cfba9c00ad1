import { CdkDrag, CdkDragDrop, CdkDragHandle, CdkDropList } from '@angular/cdk/drag-drop';
import {
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  Injector,
  afterNextRender,
  inject,
  input,
  output,
  signal,
} from '@angular/core';
import { QUEUE_MAX, type QueueEntry } from '../../../../contract/api';
import { toApiFailure } from '../../core/api-error';
import { SessionsApi } from '../../sessions/sessions-api';
import { ConversationStore } from '../conversation-store';
import { keyboardMove, moveItem } from './queue-order';

/** The component's words, in the console's language. */
const TEXT = {
  queue: $localize`Queue`,
  noInstructionWaitingMessages: $localize`No instruction waiting. Messages sent while the agent works wait here.`,
  dragOrFocusAn: $localize`Drag, or focus an entry and press Alt+↑ / Alt+↓ to reorder; Delete removes it.`,
  queued: (place: number, count: number, text: string) =>
    $localize`Queued ${place}:place: of ${count}:count:: ${text}:text:`,
  steerNowIntoThe: $localize`Steer now: into the running turn instead of after it`,
  steerNowWithQueued: (n: unknown) => $localize`Steer now with queued instruction ${n}:number:`,
  removeQueuedInstruction: (n: unknown) => $localize`Remove queued instruction ${n}:number:`,
};

/** The instructions waiting for the agent: reorder by drag or Alt+arrows, delete. */
@Component({
  selector: 'app-queue-panel',
  imports: [CdkDropList, CdkDrag, CdkDragHandle],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './queue-panel.html',
  styleUrl: './queue-panel.scss',
})
export class QueuePanel {
  protected readonly t = TEXT;
  private readonly store = inject(ConversationStore);
  private readonly api = inject(SessionsApi);
  private readonly host = inject<ElementRef<HTMLElement>>(ElementRef);
  private readonly injector = inject(Injector);
  readonly sessionId = input.required<string>();
  /** The last entry was removed from the keyboard: the page puts the focus on the composer. */
  readonly lastRemoved = output<void>();

  protected readonly queue = this.store.queue;
  protected readonly max = QUEUE_MAX;
  protected readonly error = signal<string | null>(null);
  protected readonly announcement = signal('');

  protected dropped(event: CdkDragDrop<unknown>): void {
    if (event.previousIndex !== event.currentIndex)
      void this.move(event.previousIndex, event.currentIndex, false);
  }

  protected onKeydown(event: KeyboardEvent, index: number): void {
    if (event.key === 'Delete') {
      event.preventDefault();
      const entry = this.queue()[index];
      if (entry) void this.remove(entry.id);
      return;
    }
    const target = keyboardMove(event.key, event.altKey, index, this.queue().length);
    if (target === null) return;
    event.preventDefault();
    void this.move(index, target, true);
  }

  protected async steer(entryId: string): Promise<void> {
    const before = this.queue();
    const shown = before.filter((entry) => entry.id !== entryId);
    this.store.setQueue(shown);
    try {
      await this.api.steerQueued(this.sessionId(), entryId);
      this.announcement.set($localize`Instruction sent to the running turn.`);
    } catch (error: unknown) {
      this.undo(shown, before);
      this.error.set(toApiFailure(error).message);
    }
  }

  protected async remove(entryId: string): Promise<void> {
    const before = this.queue();
    const index = before.findIndex((entry) => entry.id === entryId);
    const shown = before.filter((entry) => entry.id !== entryId);
    this.store.setQueue(shown);
    this.refocusAfterRemoval(index);
    try {
      await this.api.deleteQueued(this.sessionId(), entryId);
      this.announcement.set($localize`Instruction removed from the queue.`);
    } catch (error: unknown) {
      this.undo(shown, before);
      this.error.set(toApiFailure(error).message);
    }
  }

  /**
   * A refused change goes back to the queue before it, unless another change (a second move or
   * delete, a read of the daemon's queue) has replaced it meanwhile: that one is newer.
   */
  private undo(shown: QueueEntry[], before: QueueEntry[]): void {
    if (this.queue() === shown) this.store.setQueue(before);
  }

  /** The removed row (or its button) had the focus: give it to the entry now in its place. */
  private refocusAfterRemoval(index: number): void {
    afterNextRender(
      () => {
        const active = document.activeElement;
        if (active && active !== document.body && active.isConnected) return;
        const entries = this.host.nativeElement.querySelectorAll<HTMLElement>('li.entry');
        const next = entries[index] ?? entries[index - 1];
        if (next) next.focus();
        else this.lastRemoved.emit();
      },
      { injector: this.injector },
    );
  }

  private async move(from: number, to: number, refocus: boolean): Promise<void> {
    const before = this.queue();
    const next = moveItem(before, from, to);
    this.store.setQueue(next);
    this.error.set(null);
    if (refocus) {
      queueMicrotask(() =>
        this.host.nativeElement.querySelectorAll<HTMLElement>('li.entry')[to]?.focus(),
      );
    }
    try {
      const answer = await this.api.reorderQueue(
        this.sessionId(),
        next.map((entry) => entry.id),
      );
      // A second move made meanwhile is newer than this one's answer: its own answer follows.
      if (this.queue() === next) this.store.setQueue(answer);
      this.announcement.set($localize`Moved to position ${to + 1} of ${next.length}.`);
      if (refocus)
        queueMicrotask(() =>
          this.host.nativeElement.querySelectorAll<HTMLElement>('li.entry')[to]?.focus(),
        );
    } catch (error: unknown) {
      this.undo(next, before);
      this.error.set(toApiFailure(error).message);
    }
  }
}
