/**
 * How a terminal shows one event of a conversation: a few short human lines, or nothing. Shared by
 * the shell's `relais attach` and the console's terminal panel, so both read the same. Pure, no I/O.
 * Agent lines are read by their agent's decoder (formats/).
 */
import type { AgentKind } from './api.js';
import { decoderFor, type DecodedItem } from './formats/index.js';

type Json = Record<string, unknown>;

const obj = (value: unknown): Json =>
  (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Json;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Agent text goes to a real terminal: escape sequences in it could move the cursor, rewrite the
 * screen, set the window title or worse. Controls other than newline and tab, and the
 * text-direction marks, are shown as `�`.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
export function printable(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROL, '\uFFFD');
}

/**
 * The lines one stored event of a session of `agent` reads as in a terminal (already made
 * printable), or null.
 */
export function renderEvent(source: string, data: Json, agent: AgentKind): string | null {
  const text =
    source === 'relais' ? renderRelais(data) : renderItems(decoderFor(agent)(data, source));
  return text === null ? null : printable(text);
}

function renderItems(items: DecodedItem[]): string | null {
  return items.map(itemLine).filter(Boolean).join('\n') || null;
}

function itemLine(item: DecodedItem): string | null {
  switch (item.kind) {
    case 'user':
      return item.text ? `you ▸ ${item.text}` : null;
    case 'text':
      // A streamed message is shown once, whole.
      return item.final ? `agent ▸ ${item.text}` : null;
    case 'thinking':
      return 'agent ▸ (thinking)';
    case 'tool_call':
      return `tool ▸ ${item.name} ${summarize(item.input)}`;
    case 'tool_result':
      // A finished item that printed nothing (a Codex file change) was said by its call.
      if (item.call && !item.output && !item.isError) return null;
      return `result${item.isError ? ' (error)' : ''} ▸ ${firstLine(item.output)}`;
    case 'turn_end':
      if (item.outcome === 'interrupted') return '— turn interrupted —';
      return item.outcome === 'failed' ? '— turn ended with an error —' : '— turn ended —';
    default:
      return null;
  }
}

function renderRelais(data: Json): string | null {
  switch (data['subtype']) {
    case 'permission_decided':
      return `✓ ${String(data['tool_name'])}: ${String(data['decision'])} by ${String(data['decided_by'])}`;
    case 'permission_auto':
      return data['decision'] === 'deny'
        ? `✗ ${String(data['tool_name'])} refused: ${String(data['reason'])}`
        : null;
    case 'interrupt_requested':
      return '(interrupt requested)';
    case 'message_queued':
      return `(queued) ${String(data['text'])}`;
    case 'state':
      return data['state'] === 'ended' ? `— session ended (${String(data['end_reason'])}) —` : null;
    default:
      // A waiting prompt is shown by the terminal itself, with how to answer it.
      return null;
  }
}

function summarize(input: unknown): string {
  if (!input || typeof input !== 'object' || !Object.keys(input).length) return '';
  const record = input as Json;
  const value = record['command'] ?? record['file_path'] ?? record['path'] ?? record['pattern'];
  return typeof value === 'string' ? value : JSON.stringify(input).slice(0, 120);
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/** A waiting prompt as a terminal asks it: what it is, then how to answer. */
export interface PromptView {
  id: string;
  tool_name: string;
  input: Json;
  description: string | null;
  is_question: boolean;
}

/** The question of an AskUserQuestion prompt: its text and its option labels. */
export function questionsOf(prompt: PromptView): { question: string; labels: string[] }[] {
  return (Array.isArray(prompt.input['questions']) ? prompt.input['questions'] : []).map((q) => ({
    question: str(obj(q)['question']) ?? '',
    labels: (Array.isArray(obj(q)['options']) ? (obj(q)['options'] as unknown[]) : []).map(
      (o) => str(obj(o)['label']) ?? '',
    ),
  }));
}

export function renderPrompt(prompt: PromptView): string {
  if (prompt.is_question) {
    const lines = questionsOf(prompt).flatMap(({ question, labels }) => [
      `? ${question}`,
      ...labels.map((label, i) => `  ${i + 1}. ${label}`),
    ]);
    return printable(
      [...lines, '  answer with the number of your choice, or n to refuse'].join('\n'),
    );
  }
  const what = prompt.description ?? summarize(prompt.input);
  return printable(
    `? ${prompt.tool_name} waits for you: ${what}\n` +
      '  y allow once · s allow for this session · n [reason] deny',
  );
}

/**
 * What a line typed while a prompt waits means: an answer, or null (then it is a message).
 * y/yes, s/session, n/no [reason]; for a question, the number of a choice (one per question,
 * separated by spaces or commas).
 */
export type PromptAnswer =
  | { decision: 'allow'; scope: 'once' | 'session'; answers?: Record<string, string> }
  | { decision: 'deny'; message?: string };

export function parsePromptAnswer(prompt: PromptView, line: string): PromptAnswer | null {
  const text = line.trim();
  const deny = /^(?:n|no)(?:\s+(.*))?$/is.exec(text);
  if (deny)
    return deny[1]?.trim() ? { decision: 'deny', message: deny[1].trim() } : { decision: 'deny' };
  if (prompt.is_question) {
    const questions = questionsOf(prompt);
    const picks = text.split(/[\s,]+/).filter(Boolean);
    if (picks.length !== questions.length || !picks.every((p) => /^\d+$/.test(p))) return null;
    const answers: Record<string, string> = {};
    for (const [i, q] of questions.entries()) {
      const label = q.labels[Number(picks[i]) - 1];
      if (label === undefined) return null;
      answers[q.question] = label;
    }
    return { decision: 'allow', scope: 'once', answers };
  }
  if (/^(?:y|yes)$/i.test(text)) return { decision: 'allow', scope: 'once' };
  if (/^(?:s|session)$/i.test(text)) return { decision: 'allow', scope: 'session' };
  return null;
}

/**
 * A terminal reads events with texts clipped at this (`clip=`): it prints the first line of a
 * result, so a file read need not come whole, and a page of history stays many events long.
 */
export const TERMINAL_CLIP = 8000;

/** A second Ctrl-C within this long leaves; one alone interrupts the turn. */
export const DOUBLE_PRESS_MS = 2000;

export const TERMINAL_HELP = [
  'Type a message and Enter to send it (queued while the agent works).',
  'When a prompt waits: y allow once · s allow for this session · n [reason] deny; a number answers a question.',
  'Ctrl-C interrupts the turn; Ctrl-C twice or Ctrl-D leaves (the session goes on).',
  'Commands: /interrupt  /queue  /send <text> (a message even while a prompt waits)  /help  /quit',
].join('\n');

/** What a typed line asks for, the same in every terminal. */
export type TerminalIntent =
  | { kind: 'nothing' }
  | { kind: 'send'; text: string }
  | { kind: 'answer'; prompt: PromptView; answer: PromptAnswer }
  | { kind: 'interrupt' }
  | { kind: 'queue' }
  | { kind: 'leave' }
  | { kind: 'say'; text: string };

export function interpretLine(raw: string, waiting: PromptView | undefined): TerminalIntent {
  const line = raw.trim();
  if (!line) return { kind: 'nothing' };
  if (line.startsWith('/')) {
    const name = line.split(/\s/, 1)[0]!;
    const rest = line.slice(name.length).trim();
    switch (name) {
      case '/quit':
      case '/leave':
        return { kind: 'leave' };
      case '/interrupt':
        return { kind: 'interrupt' };
      case '/queue':
        return { kind: 'queue' };
      case '/help':
        return { kind: 'say', text: TERMINAL_HELP };
      case '/send':
        return rest ? { kind: 'send', text: rest } : { kind: 'say', text: '/send <text>' };
      default:
        return { kind: 'say', text: printable(`Unknown command ${name}. /help lists them.`) };
    }
  }
  if (!waiting) return { kind: 'send', text: line };
  const answer = parsePromptAnswer(waiting, line);
  if (answer) return { kind: 'answer', prompt: waiting, answer };
  return {
    kind: 'say',
    text: waiting.is_question
      ? 'A question waits: answer with the number of your choice, or n to refuse (/send <text> sends a message).'
      : 'A prompt waits: y, s or n [reason] (/send <text> sends a message).',
  };
}

/** The prompt a terminal shows before the line being typed: what is awaited, else the state. */
export function promptLabel(state: string, waiting: PromptView | undefined): string {
  if (!waiting) return `${state} ▸ `;
  return waiting.is_question ? 'answer (number, n) ▸ ' : 'answer (y/s/n) ▸ ';
}
