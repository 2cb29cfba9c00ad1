import {
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  computed,
  inject,
  input,
  output,
} from '@angular/core';
import { formatNumber, formatUsd } from '../../shared/locale-format';
import { PermissionMode } from '../../../../contract/api';
import { modeText } from '../../shared/mode-label';
import { ScrollBlock } from '../../shared/scroll-block';
import { Timestamp } from '../../shared/timestamp';
import { MarkdownView } from '../rows/markdown-view';
import { EVENT_CLIP } from '../conversation-paging';
import { TimelineItem } from './timeline';
import { ToolCall } from '../rows/tool-call';
import { OpenedParts } from '../rows/opened-parts';
import { ThinkingBlock } from '../rows/thinking-block';
import { RowDrawing } from './row-drawing';

/** The component's words, in the console's language. */
const TEXT = {
  longTextsHereAre: (clipChars: unknown) =>
    $localize`Long texts here are cut at ${clipChars}:clipChars: characters.`,
  showThemWhole: $localize`Show them whole`,
  noEventsYet: $localize`No events yet.`,
  you: $localize`You`,
  turn: (turn: unknown) => $localize`· turn ${turn}:turn:`,
  agent: $localize`Agent`,
  subAgent: $localize`(sub-agent)`,
  resultOfAnEarlier: $localize`Result of an earlier tool call`,
  contextModel: $localize`Context: model`,
  cwd: $localize`· cwd`,
  tools: (tools: unknown) => $localize`· ${tools}:tools: tools`,
  interrupted: $localize`Interrupted`,
  turnFailed: $localize`Turn failed`,
  turnFinished: $localize`Turn finished`,
  inS: (durationMs: unknown) => $localize`in ${durationMs}:durationMs: s`,
  est: (costUsd: unknown) => $localize`· est. ${costUsd}:costUsd:`,
};

/** The rendered window of a conversation; every step carries its seq for jumps and anchoring. */
@Component({
  selector: 'app-timeline-view',
  imports: [Timestamp, ToolCall, MarkdownView, ThinkingBlock, ScrollBlock],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './timeline-view.html',
  styleUrl: './timeline-view.scss',
  providers: [OpenedParts],
})
export class TimelineView {
  protected readonly t = TEXT;
  readonly items = input.required<TimelineItem[]>();
  readonly pendingToolIds = input<ReadonlySet<string>>(new Set());
  /** Whether the agent may still answer pending tool calls (working or waiting). */
  readonly live = input(true);
  readonly turnBySeq = input<ReadonlyMap<number, number>>(new Map());
  /** Seqs of the events that came with texts cut (see EVENT_CLIP). */
  readonly clipped = input<ReadonlySet<number>>(new Set());
  /** Asked for a step's cut events whole. */
  readonly readWhole = output<number[]>();
  /** The session's Relais mode (the agent's own "default" says nothing to a person). */
  readonly mode = input<PermissionMode | null>(null);
  /** The conversation's last seq: a row's place is told as its seq of this many. */
  readonly lastSeq = input(0);
  /** Rows far from the view are placeholders of their height. */
  protected readonly drawing = new RowDrawing(inject(ElementRef).nativeElement, this.items);
  protected readonly setSize = (seq: number) => Math.max(this.lastSeq(), seq);
  protected readonly seconds = (ms: number) => formatNumber(ms / 1000, 1);
  protected readonly usd = (value: number) => formatUsd(value, 4);
  protected readonly clipChars = formatNumber(EVENT_CLIP);
  protected readonly cutSeqs = computed(() => {
    const clipped = this.clipped();
    const bySeq = new Map<string, number[]>();
    if (clipped.size === 0) return bySeq;
    for (const item of this.items()) {
      const seqs = [item.seq];
      if (item.kind === 'tool' && item.result) seqs.push(item.result.seq);
      if (item.kind === 'text' && item.clippedSeq !== undefined) seqs.push(item.clippedSeq);
      const cut = seqs.filter((seq) => clipped.has(seq));
      if (cut.length) bySeq.set(item.key, [...new Set(cut)]);
    }
    return bySeq;
  });
  protected readonly modeText = computed(() => {
    const mode = this.mode();
    return mode ? modeText(mode) : null;
  });
}
