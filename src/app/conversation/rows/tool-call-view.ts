import { Refusal, refusalOf, refusalWords } from '../timeline/refusal';
import { plural } from '../../shared/plural';
import { TimelineItem } from '../timeline/timeline';
import {
  isLong,
  isLongText,
  lineCount,
  ToolBody,
  toolBody,
  ToolStatus,
  toolStatus,
} from './tool-view';

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;

const STATUS_TEXT: Record<ToolStatus, string> = {
  running: $localize`:tool call status:running…`,
  waiting: $localize`:tool call status:waiting for permission`,
  'no-result': $localize`:tool call status:no result`,
  ok: $localize`:tool call status:succeeded`,
  error: $localize`:tool call status:failed`,
  denied: $localize`:tool call status:denied`,
  refused: $localize`:tool call status:refused`,
  interrupted: $localize`:tool call status:interrupted`,
};

/** What a tool call's card shows, derived at once from the call and its state. */
export interface ToolCallView {
  body: ToolBody;
  status: ToolStatus;
  statusText: string;
  refusal: Refusal | null;
  refusalDetail: string;
  inputLong: boolean;
  /** stdout and stderr as shown (a result without them shows its text as stdout). */
  output: { stdout: string; stderr: string } | null;
  /** "12 lines", or "12+ lines" when some text came cut. */
  outputLines: string;
  outputLong: boolean;
}

/**
 * One object per card rather than a dozen computed signals: each card's reactive nodes were a
 * good part of what scrolling through thousands of tool calls allocated.
 */
export function toolCallView(
  item: ToolItem,
  pending: boolean,
  live: boolean,
  cut: boolean,
): ToolCallView {
  const body = toolBody(item);
  const status = toolStatus(item, pending, live);
  const refusal = refusalOf(item.gate);
  const output = outputOf(item);
  const lines = output ? lineCount(output.stdout) + lineCount(output.stderr) - 1 : 0;
  const outputLength = output ? output.stdout.length + output.stderr.length : 0;
  return {
    body,
    status,
    statusText: statusText(item, status, refusal),
    refusal,
    refusalDetail: refusal ? refusalWords(refusal).detail : '',
    inputLong: inputLong(body),
    output,
    outputLines: output ? outputLinesText(lines, cut) : '',
    outputLong: outputLength > 0 && isLongText(outputLength, lines),
  };
}

/** `12 lines`, `12+ lines` when the output was cut. */
function outputLinesText(lines: number, cut: boolean): string {
  const count = `${lines}${cut ? '+' : ''}`;
  return plural(lines, {
    one: $localize`${count}:count: line`,
    other: $localize`${count}:count: lines`,
  });
}

function outputOf(item: ToolItem): ToolCallView['output'] {
  const result = item.result;
  if (!result) return null;
  if (result.stdout !== null || result.stderr !== null)
    return { stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
  return { stdout: result.text, stderr: '' };
}

function statusText(item: ToolItem, status: ToolStatus, refusal: Refusal | null): string {
  if (refusal) return refusalWords(refusal).status;
  return status === 'waiting' && item.name === 'AskUserQuestion'
    ? $localize`:tool call status:waiting for your answer`
    : STATUS_TEXT[status];
}

function inputLong(body: ToolBody): boolean {
  if (body.kind === 'json') return isLong(body.json);
  if (body.kind === 'path') return isLong(body.content);
  if (body.kind === 'edit') return body.rows.length > 16;
  return isLong(body.command);
}
