import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { PageLink } from '../../core/routing/page-link';
import { ScrollBlock } from '../../shared/scroll-block';
import { decidedByLabel } from '../../shared/decided-by-label';
import { Timestamp } from '../../shared/timestamp';
import { TimelineItem } from '../timeline/timeline';
import { OpenedParts, RowPart } from './opened-parts';
import { toolCallView } from './tool-call-view';

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;

/** The component's words, in the console's language. */
const TEXT = {
  showInput: $localize`Show input`,
  hideInput: $localize`Hide input`,
  denied: $localize`Denied`,
  allowed: $localize`Allowed`,
  deniedForThisSession: $localize`Denied for this session`,
  allowedForThisSession: $localize`Allowed for this session`,
  whatTheAgentWas: $localize`What the agent was told`,
  toolResult: $localize`Tool result`,
  result: $localize`Result`,
  interrupted: $localize`interrupted`,
  error: $localize`error`,
  showOutput: (outputLines: unknown) => $localize`Show output (${outputLines}:outputLines:)`,
  hideOutput: $localize`Hide output`,
  noOutput: $localize`(no output)`,
  by: (decidedBy: string) => {
    const who = decidedByLabel(decidedBy);
    return $localize`by ${who}:decidedBy:`;
  },
  changesTo: (path: unknown) => $localize`Changes to ${path}:path:`,
  lineBefore: $localize`Line before`,
  lineAfter: $localize`Line after`,
  change: $localize`Change`,
  text: $localize`Text`,
  added: $localize`added`,
  removed: $localize`removed`,
  unchanged: $localize`unchanged`,
  lineNumbersAppearOnce: $localize`Line numbers appear once the edit is applied.`,
  refusedByRule: $localize`Refused by rule`,
  notRunThisIs: $localize`Not run: this is a read-only session`,
  notRunThisIs2: $localize`Not run: this is a dry run`,
  refusedByThePermission: $localize`Refused by the permission gate`,
};

/** One tool call with its result under it (paired by tool_use_id); long parts start collapsed. */
@Component({
  selector: 'app-tool-call',
  imports: [PageLink, Timestamp, ScrollBlock],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './tool-call.html',
  styleUrl: './tool-call.scss',
})
export class ToolCall {
  protected readonly t = TEXT;
  readonly item = input.required<ToolItem>();
  readonly pending = input(false);
  readonly live = input(true);
  /** Some text of this call or its result came cut (see EVENT_CLIP): counts are at least. */
  readonly cut = input(false);

  protected readonly view = computed(() =>
    toolCallView(this.item(), this.pending(), this.live(), this.cut()),
  );
  /** The page's (a row drawn again comes back as it was left), else this row's own. */
  private readonly parts = inject(OpenedParts, { optional: true }) ?? new OpenedParts();
  protected readonly showInput = computed(() => this.parts.isOpen(this.item().key, 'input'));
  protected readonly showOutput = computed(() => this.parts.isOpen(this.item().key, 'output'));
  protected readonly toldOpen = computed(() => this.parts.isOpen(this.item().key, 'told'));

  protected show(part: RowPart, open: boolean): void {
    this.parts.set(this.item().key, part, open);
  }

  protected toldToggled(event: Event): void {
    this.show('told', (event.target as HTMLDetailsElement).open);
  }
}
