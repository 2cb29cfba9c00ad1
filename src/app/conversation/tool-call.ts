import { ChangeDetectionStrategy, Component, computed, input, signal } from '@angular/core';
import { PageLink } from '../core/routing/page-link';
import { ScrollBlock } from '../shared/scroll-block';
import { Timestamp } from '../shared/timestamp';
import { TimelineItem } from './timeline';
import { toolCallView } from './tool-call-view';

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;

/** One tool call with its result under it (paired by tool_use_id); long parts start collapsed. */
@Component({
  selector: 'app-tool-call',
  imports: [PageLink, Timestamp, ScrollBlock],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './tool-call.html',
  styleUrl: './tool-call.scss',
})
export class ToolCall {
  readonly item = input.required<ToolItem>();
  readonly pending = input(false);
  readonly live = input(true);
  /** Some text of this call or its result came cut (see EVENT_CLIP): counts are at least. */
  readonly cut = input(false);

  protected readonly view = computed(() =>
    toolCallView(this.item(), this.pending(), this.live(), this.cut()),
  );
  protected readonly showInput = signal(false);
  protected readonly showOutput = signal(false);
}
