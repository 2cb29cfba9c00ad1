import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { PermissionMode } from '../../../contract/api';
import { modeLabel } from '../shared/mode-label';
import { Timestamp } from '../shared/timestamp';
import { MarkdownView } from './markdown-view';
import { TimelineItem } from './timeline';
import { ToolCall } from './tool-call';
import { ThinkingBlock } from './thinking-block';

/** The rendered window of a conversation; every step carries its seq for jumps and anchoring. */
@Component({
  selector: 'app-timeline-view',
  imports: [Timestamp, ToolCall, MarkdownView, ThinkingBlock],
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
  /** The session's Relais mode (the agent's own "default" says nothing to a person). */
  readonly mode = input<PermissionMode | null>(null);
  protected readonly modeText = computed(() => {
    const mode = this.mode();
    return mode ? `${modeLabel(mode)} mode` : null;
  });
}
