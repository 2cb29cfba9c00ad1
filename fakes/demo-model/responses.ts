import type { SseEvent } from './sse.js';

/**
 * The scripted OpenAI Responses API that the real pinned Codex talks to (PROTOCOLS §3.7): the same
 * `demo:<name>` prompts as the Messages side, answered as Responses SSE events. Nothing is kept
 * between requests: the script and its step come from the request's `input` items.
 */

type Json = Record<string, unknown>;

export interface ResponsesConversation {
  model: string;
  lastUserText: string;
  /** Tool outputs after the last user text: the step of the script. */
  step: number;
  lastOutput: string;
  cwd: string | null;
}

export type ResponsesPlan =
  | { kind: 'error'; script: string; step: number; status: number; message: string }
  | {
      kind: 'reply';
      script: string;
      step: number;
      text: string;
      /** A function call after the text, as Codex's tools name it. */
      call: { name: string; arguments: Json } | null;
      /** A freeform tool call (apply_patch) after the text. */
      custom: { name: string; input: string } | null;
      streamDurationMs: number;
      usage: ResponsesUsage;
    };

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

const KEYWORD = /^demo:([a-z][a-z0-9_-]*)(?:\s+([\s\S]*))?$/i;
const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output']);

const obj = (value: unknown): Json | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;

function textOf(item: Json): string {
  const content = item['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => obj(part))
    .filter((part): part is Json => part !== null && typeof part['text'] === 'string')
    .map((part) => String(part['text']))
    .join('');
}

function outputText(item: Json): string {
  const output = item['output'];
  if (typeof output === 'string') return output;
  const nested = obj(output);
  if (nested && typeof nested['content'] === 'string') return nested['content'];
  return JSON.stringify(output ?? '');
}

/** Reads the request body: the last real user text (context blocks start with `<`), then the step. */
export function readResponsesRequest(body: unknown): ResponsesConversation {
  const root = obj(body) ?? {};
  const input = Array.isArray(root['input']) ? root['input'].map(obj) : [];
  let lastUserText = '';
  let step = 0;
  let lastOutput = '';
  let cwd: string | null = null;
  for (const item of input) {
    if (!item) continue;
    if (item['type'] === 'message' && item['role'] === 'user') {
      const text = textOf(item).trim();
      const announced = /<cwd>([^<]+)<\/cwd>/.exec(text);
      if (announced) cwd = announced[1]!;
      if (text.startsWith('<')) continue;
      lastUserText = text;
      step = 0;
    } else if (OUTPUT_TYPES.has(String(item['type']))) {
      step++;
      lastOutput = outputText(item);
    }
  }
  return {
    model: typeof root['model'] === 'string' ? root['model'] : 'unknown',
    lastUserText,
    step,
    lastOutput,
    cwd,
  };
}

function usageFor(step: number, chars: number): ResponsesUsage {
  const input = 100 + 10 * step;
  const output = 5 + Math.ceil(chars / 4);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 40 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 3 },
    total_tokens: input + output,
  };
}

function reply(
  script: string,
  step: number,
  text: string,
  call: { name: string; arguments: Json } | null = null,
  streamDurationMs = 0,
  custom: { name: string; input: string } | null = null,
): ResponsesPlan {
  const chars = text.length + (call ? JSON.stringify(call.arguments).length : 0);
  return {
    kind: 'reply',
    script,
    step,
    text,
    call,
    custom,
    streamDurationMs,
    usage: usageFor(step, chars + (custom?.input.length ?? 0)),
  };
}

function command(cmd: string): { name: string; arguments: Json } {
  return { name: 'exec_command', arguments: { cmd, yield_time_ms: 10_000 } };
}

function firstWord(text: string): { head: string; rest: string } {
  const match = /^(\S+)\s*([\s\S]*)$/.exec(text.trim());
  return match ? { head: match[1]!, rest: match[2]! } : { head: '', rest: '' };
}

export function responsesPlan(conversation: ResponsesConversation): ResponsesPlan {
  const { lastUserText, step, lastOutput } = conversation;
  const match = KEYWORD.exec(lastUserText);
  if (!match) return reply('echo', step, `Demo model here. You said: ${lastUserText}`);
  const name = match[1]!.toLowerCase();
  const arg = (match[2] ?? '').trim();
  switch (name) {
    case 'bash':
      return step === 0
        ? reply('bash', step, `Running \`${arg || 'echo demo'}\`.`, command(arg || 'echo demo'))
        : reply('bash', step, `Command result: ${lastOutput.slice(0, 200)}`);
    case 'write':
      return writePlan(step, arg, lastOutput);
    case 'ask':
      return askPlan(step, lastOutput);
    case 'slow': {
      const ms = Number.parseInt(arg, 10);
      return reply('slow', step, 'Slow reply done.', null, Number.isFinite(ms) ? ms : 3000);
    }
    case 'steps': {
      const count = Math.min(50, Math.max(1, Number.parseInt(arg, 10) || 3));
      return step < count
        ? reply('steps', step, `Step ${step}.`, command(`sh -c 'echo step ${step}'`))
        : reply('steps', step, `Finished ${count} steps.`);
    }
    case 'sleep':
      return step === 0
        ? reply('sleep', step, 'Sleeping.', command("sh -c 'sleep 600 & sleep 600'"))
        : reply('sleep', step, `Sleep ended: ${lastOutput.slice(0, 200)}`);
    case 'error':
      return errorPlan(step, arg);
    default:
      return reply(
        name,
        step,
        'Known demo scripts: demo:bash, demo:write, demo:ask, demo:slow, demo:steps, demo:sleep, demo:error.',
      );
  }
}

/** demo:write FILE TEXT: adds the file by apply_patch, then reports the tool's output. */
function writePlan(step: number, arg: string, lastOutput: string): ResponsesPlan {
  if (step > 0) return reply('write', step, `Write result: ${lastOutput.slice(0, 200)}`);
  const { head, rest } = firstWord(arg);
  const file = head || 'demo.txt';
  const lines = (rest || 'demo')
    .split('\n')
    .map((line) => `+${line}`)
    .join('\n');
  const patch = `*** Begin Patch\n*** Add File: ${file}\n${lines}\n*** End Patch\n`;
  return reply('write', step, `Writing ${file}.`, null, 0, {
    name: 'apply_patch',
    input: patch,
  });
}

/** demo:ask: asks one multiple-choice question, then repeats the answer. */
function askPlan(step: number, lastOutput: string): ResponsesPlan {
  return step === 0
    ? reply('ask', step, 'I have a question.', {
        name: 'request_user_input',
        arguments: {
          questions: [
            {
              id: 'color',
              header: 'Color',
              question: 'Which color?',
              options: [
                { label: 'Red', description: 'warm' },
                { label: 'Blue', description: 'cool' },
              ],
            },
          ],
        },
      })
    : reply('ask', step, `You answered: ${lastOutput}`);
}

/** demo:error STATUS: fails with that status (500 unless it is 400–599). */
function errorPlan(step: number, arg: string): ResponsesPlan {
  const status = Number.parseInt(arg, 10);
  const code = Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500;
  return {
    kind: 'error',
    script: 'error',
    step,
    status: code,
    message: `Demo error ${code}.`,
  };
}

/** Quota headers on every answer, as the real service sends them (x-codex-primary-*). */
export interface ResponsesQuota {
  primaryUsedPercent: number;
  secondaryUsedPercent: number;
}

export function quotaHeaders(quota: ResponsesQuota, nowMs: number): Record<string, string> {
  const seconds = Math.floor(nowMs / 1000);
  return {
    'x-codex-primary-used-percent': String(quota.primaryUsedPercent),
    'x-codex-primary-window-minutes': '300',
    'x-codex-primary-reset-at': String(seconds + 3 * 3600),
    'x-codex-secondary-used-percent': String(quota.secondaryUsedPercent),
    'x-codex-secondary-window-minutes': '10080',
    'x-codex-secondary-reset-at': String(seconds + 4 * 86400),
  };
}

/** The SSE events of one answer: text streamed as deltas, then the tool call, then usage. */
export function responsesEvents(
  plan: Extract<ResponsesPlan, { kind: 'reply' }>,
  id: string,
): SseEvent[] {
  const messageId = `msg_${id}`;
  const pieces = chunk(plan.text, plan.streamDurationMs > 0 ? 8 : 1);
  const delay = plan.streamDurationMs > 0 ? plan.streamDurationMs / pieces.length : 0;
  const events: SseEvent[] = [
    sse('response.created', { response: { id: `resp_${id}` } }),
    sse('response.output_item.added', {
      output_index: 0,
      item: { type: 'message', role: 'assistant', id: messageId, content: [] },
    }),
    ...pieces.map((delta) =>
      sse(
        'response.output_text.delta',
        { delta, item_id: messageId, output_index: 0, content_index: 0 },
        delay,
      ),
    ),
    sse('response.output_item.done', {
      output_index: 0,
      item: {
        type: 'message',
        role: 'assistant',
        id: messageId,
        content: [{ type: 'output_text', text: plan.text, annotations: [] }],
      },
    }),
  ];
  if (plan.call)
    events.push(
      sse('response.output_item.done', {
        output_index: 1,
        item: {
          type: 'function_call',
          id: `fc_${id}`,
          call_id: `call_${id}`,
          name: plan.call.name,
          arguments: JSON.stringify(plan.call.arguments),
        },
      }),
    );
  if (plan.custom)
    events.push(
      sse('response.output_item.done', {
        output_index: 1,
        item: {
          type: 'custom_tool_call',
          id: `ctc_${id}`,
          call_id: `call_${id}`,
          name: plan.custom.name,
          input: plan.custom.input,
        },
      }),
    );
  events.push(sse('response.completed', { response: { id: `resp_${id}`, usage: plan.usage } }));
  return events;
}

function sse(type: string, data: Json, delayMs = 0): SseEvent {
  return { type, data, delayMs };
}

function chunk(text: string, count: number): string[] {
  const points = Array.from(text);
  if (count <= 1 || points.length === 0) return [text];
  const size = Math.max(1, Math.ceil(points.length / count));
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out;
}
