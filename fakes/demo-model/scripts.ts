import { isAbsolute, join } from 'node:path';

import type { Conversation, ToolResultInfo } from './conversation.js';
import { errorPlan } from './error-plans.js';
import type { Plan, PlannedBlock, ReplyPlan, StopReason } from './plan.js';

interface ScriptContext {
  arg: string;
  step: number;
  lastResult?: ToolResultInfo;
  /** Every tool result of this script so far, in order. */
  results: ToolResultInfo[];
  cwd?: string;
  /** The tools the request offers the model, and its system prompt. */
  tools: string[];
  system: string;
}

type Script = (context: ScriptContext) => Plan;

const KEYWORD = /^demo:([a-z][a-z0-9_-]*)(?:\s+([\s\S]*))?$/i;
const MAX_STEPS = 50;
const DEFAULT_SLOW_MS = 3000;
const DEFAULT_STEPS = 3;
const DEFAULT_HEAVY_TOKENS = 10_000;

export const ASK_QUESTION = {
  question: 'Which color?',
  header: 'Color',
  options: [
    { label: 'Red', description: 'warm' },
    { label: 'Blue', description: 'cool' },
  ],
  multiSelect: false,
} as const;

/** Rich GitHub Markdown, for the console's renderer. */
export const MARKDOWN_SAMPLE = [
  '## Files changed',
  '',
  '| File | Lines | Status |',
  '| :--- | ---: | :---: |',
  '| `src/a.ts` | 12 | **new** |',
  '| `src/b.ts` | 3 | edited |',
  '',
  '- Checks',
  '  - [x] unit tests',
  '  - [ ] journeys',
  '',
  '> Note: nothing was pushed.',
  '',
  '```ts',
  'export const answer: number = 42; // the answer',
  '```',
  '',
  'See [the docs](https://example.com/docs).',
].join('\n');

const SCRIPTS: Record<string, Script> = {
  bash: ({ arg, step, lastResult }) =>
    step === 0
      ? toolTurn('bash', step, `Running \`${arg || 'echo demo'}\`.`, 'Bash', {
          command: arg || 'echo demo',
          description: 'Run the demo command',
        })
      : textTurn('bash', step, `Command result: ${resultText(lastResult).slice(0, 200)}`),

  write: ({ arg, step, lastResult, cwd }) => {
    if (step > 0)
      return textTurn('write', step, `Write result: ${resultText(lastResult).slice(0, 200)}`);
    const { head, rest } = splitFirstWord(arg);
    const file = head || 'demo.txt';
    return toolTurn('write', step, `Writing ${file}.`, 'Write', {
      file_path: absolutePath(file, cwd),
      content: rest,
    });
  },

  edit: ({ arg, step, lastResult, cwd }) => {
    if (step > 0)
      return textTurn('edit', step, `Edit result: ${resultText(lastResult).slice(0, 200)}`);
    const { head, rest } = splitFirstWord(arg);
    const [oldString = '', newString = ''] = rest.split(' => ');
    const file = head || 'demo.txt';
    return toolTurn('edit', step, `Editing ${file}.`, 'Edit', {
      file_path: absolutePath(file, cwd),
      old_string: unescapeNewlines(oldString),
      new_string: unescapeNewlines(newString),
    });
  },

  markdown: ({ step }) => textTurn('markdown', step, MARKDOWN_SAMPLE),

  read: ({ arg, step, lastResult, cwd }) =>
    step === 0
      ? toolTurn('read', step, `Reading ${arg || 'README.md'}.`, 'Read', {
          file_path: absolutePath(arg || 'README.md', cwd),
        })
      : textTurn('read', step, `First line: ${firstLine(resultText(lastResult))}`),

  grep: ({ arg, step, lastResult, cwd }) => {
    if (step > 0)
      return textTurn('grep', step, `Grep result: ${resultText(lastResult).slice(0, 2000)}`);
    const [pattern = 'TODO', where, glob] = arg.split(/\s+/).filter((w) => w !== '');
    return toolTurn('grep', step, `Searching for ${pattern}.`, 'Grep', {
      pattern,
      ...(where === undefined || where === '.' ? {} : { path: absolutePath(where, cwd) }),
      ...(glob === undefined ? {} : { glob }),
      output_mode: 'content',
    });
  },

  ask: ({ step, lastResult }) =>
    step === 0
      ? toolTurn('ask', step, 'I have a question.', 'AskUserQuestion', {
          questions: [ASK_QUESTION],
        })
      : textTurn('ask', step, `You answered: ${resultText(lastResult)}`),

  think: ({ arg, step }) =>
    reply(
      'think',
      step,
      [
        {
          type: 'thinking',
          thinking: `Let me think about ${arg || 'this'} briefly.`,
          signature: Buffer.from('demo-model-signature').toString('base64'),
        },
        { type: 'text', text: 'Done thinking.' },
      ],
      'end_turn',
    ),

  // `demo:steps <count> [<seconds>]`: each step's command first sleeps that long, so that a test
  // knows the next prompt cannot arrive sooner.
  steps: ({ arg, step }) => {
    const [count = '', pause = ''] = arg.split(/\s+/);
    const total = clampInt(count, DEFAULT_STEPS, 1, MAX_STEPS);
    if (step >= total) return textTurn('steps', step, `Finished ${total} steps.`);
    const n = step + 1;
    const wait = clampInt(pause, 0, 0, 30);
    return toolTurn('steps', step, `Step ${n} of ${total}.`, 'Bash', {
      command: wait > 0 ? `sh -c 'sleep ${wait}; echo step ${n}'` : `sh -c 'echo step ${n}'`,
      description: `Print step ${n}`,
    });
  },

  slow: ({ arg, step }) => ({
    ...textTurn('slow', step, 'Slow reply done.'),
    streamDurationMs: clampInt(arg, DEFAULT_SLOW_MS, 0, 3_600_000),
  }),

  // demo:heavy <tokens>: a short reply that reports <tokens> input tokens (default 10 000), as a
  // session reading a large codebase would: it moves the demo subscription's quota windows.
  heavy: ({ arg, step }) => ({
    ...textTurn('heavy', step, 'Heavy reply done.'),
    extraInputTokens: clampInt(arg, DEFAULT_HEAVY_TOKENS, 0, 10_000_000),
  }),

  sleep: ({ step, lastResult }) =>
    step === 0
      ? toolTurn('sleep', step, 'Starting two sleepers.', 'Bash', {
          command: "sh -c 'sleep 600 & sleep 600'",
          description: 'Start two long sleeps',
        })
      : textTurn('sleep', step, `Sleep ended: ${resultText(lastResult).slice(0, 200)}`),

  error: ({ arg, step }) => errorPlan(clampInt(arg, 500, 400, 599), step),

  // demo:mcp <server> <tool> [<tool>…]: calls each tool of the server in turn (input {code:"A1"}),
  // then tells each result and which of the server's tools it was offered.
  mcp: ({ arg, step, results, tools }) => {
    const [server = 'catalogue', ...wanted] = arg.split(/\s+/).filter((w) => w !== '');
    const names = wanted.length > 0 ? wanted : ['lookup'];
    const tool = names[step];
    if (tool !== undefined)
      return toolTurn('mcp', step, `Calling ${tool} of ${server}.`, `mcp__${server}__${tool}`, {
        code: 'A1',
      });
    const offered = tools.filter((name) => name.startsWith(`mcp__${server}__`)).sort();
    const lines = names.map((name, i) => `${name}: ${resultText(results[i]).slice(0, 300)}`);
    return textTurn('mcp', step, [`Offered: ${offered.join(', ') || 'none'}`, ...lines].join('\n'));
  },

  // demo:system <word>: quotes the line of its system prompt that holds the word.
  system: ({ arg, step, system }) => {
    const word = arg || 'Relais';
    const line = system.split('\n').find((l) => l.includes(word));
    return textTurn(
      'system',
      step,
      line === undefined ? `No system prompt line holds ${word}.` : `System prompt line: ${line}`,
    );
  },

  tools: ({ arg, step, lastResult, cwd }) => {
    const file = arg || 'README.md';
    if (step === 0)
      return toolTurn('tools', step, 'Listing files.', 'Bash', {
        command: 'ls',
        description: 'List files',
      });
    if (step === 1)
      return toolTurn('tools', step, `Reading ${file}.`, 'Read', {
        file_path: absolutePath(file, cwd),
      });
    return textTurn(
      'tools',
      step,
      `Summary: listed the directory and read ${file} (first line: ${firstLine(resultText(lastResult))}).`,
    );
  },
};

export const SCRIPT_NAMES: readonly string[] = Object.keys(SCRIPTS);

/** Picks the script from the last real user text and the step from the tool results after it. */
export function planFor(conversation: Conversation): Plan {
  const text = conversation.lastUserText ?? '';
  const step = conversation.toolResults.length;
  const match = KEYWORD.exec(text.trim());
  if (!match) return textTurn('echo', step, `Demo model here. You said: ${text}`);
  const name = (match[1] ?? '').toLowerCase();
  const script = SCRIPTS[name];
  if (!script) {
    return textTurn(
      'unknown',
      step,
      `Unknown demo script "${name}". Known scripts: ${SCRIPT_NAMES.join(', ')}.`,
    );
  }
  const lastResult = conversation.toolResults[conversation.toolResults.length - 1];
  return script({
    arg: (match[2] ?? '').trim(),
    step,
    ...(lastResult ? { lastResult } : {}),
    results: conversation.toolResults,
    tools: conversation.tools,
    system: conversation.system,
    ...(conversation.cwd === undefined ? {} : { cwd: conversation.cwd }),
  });
}

function reply(
  script: string,
  step: number,
  blocks: PlannedBlock[],
  stopReason: StopReason,
): ReplyPlan {
  return { kind: 'reply', script, step, blocks, stopReason };
}

function textTurn(script: string, step: number, text: string): ReplyPlan {
  return reply(script, step, [{ type: 'text', text }], 'end_turn');
}

function toolTurn(
  script: string,
  step: number,
  text: string,
  name: string,
  input: Record<string, unknown>,
): ReplyPlan {
  return reply(
    script,
    step,
    [
      { type: 'text', text },
      { type: 'tool_use', name, input },
    ],
    'tool_use',
  );
}

function resultText(result: ToolResultInfo | undefined): string {
  return result?.text ?? '';
}

// Read results come numbered ("     1\tline" or "1→line"); the script quotes the bare line.
function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.replace(/^\s*\d+(\t|→)/, '');
}

/** A literal backslash-n in a one-line prompt stands for a newline (an edit's old and new text). */
function unescapeNewlines(text: string): string {
  return text.replace(/\\n/g, '\n');
}

function splitFirstWord(text: string): { head: string; rest: string } {
  const match = /^(\S*)\s*([\s\S]*)$/.exec(text);
  return { head: match?.[1] ?? '', rest: match?.[2] ?? '' };
}

function absolutePath(path: string, cwd: string | undefined): string {
  return isAbsolute(path) || cwd === undefined ? path : join(cwd, path);
}

function clampInt(text: string, fallback: number, min: number, max: number): number {
  const value = Number.parseInt(text, 10);
  if (!Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, value));
}
