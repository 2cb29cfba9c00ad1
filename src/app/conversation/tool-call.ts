import { ChangeDetectionStrategy, Component, computed, input, signal } from '@angular/core';
import { PageLink } from '../core/routing/page-link';
import { ScrollBlock } from '../shared/scroll-block';
import { Timestamp } from '../shared/timestamp';
import { refusalOf, refusalWords } from './refusal';
import { TimelineItem } from './timeline';
import { isLong, isLongText, lineCount, toolBody, toolStatus } from './tool-view';

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;

const STATUS_TEXT = {
  running: 'running…',
  waiting: 'waiting for permission',
  'no-result': 'no result',
  ok: 'succeeded',
  error: 'failed',
  denied: 'denied',
  refused: 'refused',
  interrupted: 'interrupted',
} as const;

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

  protected readonly body = computed(() => toolBody(this.item()));
  protected readonly status = computed(() => toolStatus(this.item(), this.pending(), this.live()));
  protected readonly refusal = computed(() => refusalOf(this.item().gate));
  protected readonly refusalDetail = computed(() => {
    const refusal = this.refusal();
    return refusal ? refusalWords(refusal).detail : '';
  });
  protected readonly statusText = computed(() => {
    const refusal = this.refusal();
    if (refusal) return refusalWords(refusal).status;
    return this.status() === 'waiting' && this.item().name === 'AskUserQuestion'
      ? 'waiting for your answer'
      : STATUS_TEXT[this.status()];
  });
  protected readonly output = computed(() => {
    const result = this.item().result;
    if (!result) return null;
    if (result.stdout !== null || result.stderr !== null)
      return { stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
    return { stdout: result.text, stderr: '' };
  });
  /** Lines of stdout and stderr shown one after the other (the last of one joins the first of the other). */
  private readonly outputLineCount = computed(() => {
    const output = this.output();
    return output ? lineCount(output.stdout) + lineCount(output.stderr) - 1 : 0;
  });
  protected readonly outputLines = computed(() => {
    if (!this.output()) return '';
    const lines = this.outputLineCount();
    return this.cut() ? `${lines}+ lines` : `${lines} lines`;
  });
  protected readonly outputLong = computed(() => {
    const output = this.output();
    if (!output) return false;
    const length = output.stdout.length + output.stderr.length;
    return length > 0 && isLongText(length, this.outputLineCount());
  });
  protected readonly inputLong = computed(() => {
    const body = this.body();
    if (body.kind === 'json') return isLong(body.json);
    if (body.kind === 'path') return isLong(body.content);
    if (body.kind === 'edit') return body.rows.length > 16;
    return isLong(body.command);
  });
  protected readonly showInput = signal(false);
  protected readonly showOutput = signal(false);
}
