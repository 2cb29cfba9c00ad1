import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { Timestamp } from '../shared/timestamp';
import { MarkdownPipe } from './markdown-pipe';
import { TimelineItem } from './timeline';
import { ToolCall } from './tool-call';
import { ThinkingBlock } from './thinking-block';

/** The rendered window of a conversation; every step carries its seq for jumps and anchoring. */
@Component({
  selector: 'app-timeline-view',
  imports: [Timestamp, ToolCall, MarkdownPipe, ThinkingBlock],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './timeline-view.html',
  styleUrl: './timeline-view.scss',
})
export class TimelineView {
  readonly items = input.required<TimelineItem[]>();
  readonly pendingToolIds = input<ReadonlySet<string>>(new Set());
  /** Whether the agent may still answer pending tool calls (working or waiting). */
  readonly live = input(true);
  readonly turnBySeq = input<ReadonlyMap<number, number>>(new Map());
}
