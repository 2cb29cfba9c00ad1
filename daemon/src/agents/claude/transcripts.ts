import { basename, join, sep } from 'node:path';
import { decoderFor, type DecodedItem, type Tokens } from '../../../../contract/formats/index.js';
import {
  obj,
  str,
  timeOf,
  type Json,
  type LineFacts,
  type ResponseUsage,
  type TranscriptParser,
  type TranscriptReader,
} from '../transcript-reader.js';

const decode = decoderFor('claude');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface ClaudeState {
  /** The response being read: Claude writes one line per content block, all with its ids. */
  open: ResponseUsage | null;
  /** When the last input (prompt or tool results) was written: a response starts there. */
  inputAtMs: number | null;
}

/**
 * Claude Code's transcripts: `<config>/projects/<cwd slug>/<session id>.jsonl`, one per
 * conversation. A subagent's transcript sits in `<session id>/subagents/` (or beside, named
 * `agent-….jsonl`, its lines naming the parent's session id) and belongs to the parent.
 */
export const claudeTranscripts: TranscriptReader = {
  agent: 'claude',
  roots: (configDir) => [join(configDir, 'projects')],
  accepts: (path) => path.endsWith('.jsonl'),
  conversationOf(path) {
    const own = basename(path, '.jsonl');
    if (UUID.test(own)) return own;
    const parts = path.split(sep);
    const sub = parts.lastIndexOf('subagents');
    const parent = sub > 0 ? parts[sub - 1]! : '';
    return UUID.test(parent) ? parent : null;
  },
  parser: (state) => new ClaudeParser(state as ClaudeState | null),
};

class ClaudeParser implements TranscriptParser {
  private readonly s: ClaudeState;

  constructor(state: ClaudeState | null) {
    this.s = state ?? { open: null, inputAtMs: null };
  }

  /**
   * What a line says comes from Claude's decoder; the fields Claude Code adds around each message
   * in its transcripts (the conversation, the time, the folder, the request, the titles) are the
   * file's bookkeeping, which no other reader of the format shows, so they are read here.
   */
  line(value: unknown): LineFacts {
    const line = obj(value);
    if (!line) return {};
    const facts: LineFacts = {};
    const conversation = str(line['sessionId']);
    if (conversation) facts.conversationId = conversation;
    const at = timeOf(line['timestamp']);
    if (at !== undefined) facts.atMs = at;
    const cwd = str(line['cwd']);
    if (cwd) facts.cwd = cwd;
    const closed: ResponseUsage[] = [];
    switch (line['type']) {
      case 'assistant':
        this.assistant(line, at, facts, closed);
        break;
      case 'user': {
        this.close(closed);
        if (at !== undefined) this.s.inputAtMs = at;
        const prompt = promptOf(decode(line, 'agent'));
        if (prompt) facts.prompt = prompt;
        break;
      }
      case 'summary':
        facts.title = str(line['summary']) ?? undefined;
        break;
      case 'custom-title':
        facts.title = str(line['customTitle']) ?? undefined;
        break;
    }
    if (closed.length) facts.responses = closed;
    return facts;
  }

  private assistant(line: Json, at: number | undefined, facts: LineFacts, closed: ResponseUsage[]) {
    const { call, tools } = callOf(decode(line, 'agent'));
    // A synthetic message (no model) is Claude Code's own, an API error shown as a reply: nothing was billed.
    if (!call?.model) return;
    facts.model = call.model;
    if (!call.tokens) return;
    const request = str(line['requestId']);
    const key = call.id && request ? `claude:${call.id}:${request}` : null;
    const endedAt = at ?? this.s.inputAtMs ?? 0;
    const tokens = counted(call.tokens);
    const open = this.s.open;
    if (open && key !== null && open.key === key) {
      // The same response on another line: keep the largest counts (an early line may carry a
      // streaming snapshot), and every tool it called.
      open.input = Math.max(open.input, tokens.input);
      open.output = Math.max(open.output, tokens.output);
      open.cacheRead = Math.max(open.cacheRead, tokens.cacheRead);
      open.cacheCreation = Math.max(open.cacheCreation, tokens.cacheCreation);
      open.cacheCreation1h = Math.max(open.cacheCreation1h, tokens.cacheCreation1h);
      open.endedAtMs = Math.max(open.endedAtMs, endedAt);
      for (const tool of tools)
        if (!open.tools.some((t) => t.id === tool.id)) open.tools.push(tool);
      return;
    }
    this.close(closed);
    const response: ResponseUsage = {
      key,
      model: call.model,
      startedAtMs: Math.min(this.s.inputAtMs ?? endedAt, endedAt),
      endedAtMs: endedAt,
      ...tokens,
      reasoning: null,
      tools,
    };
    if (key === null) closed.push(response);
    else this.s.open = response;
  }

  private close(into: ResponseUsage[]): void {
    if (this.s.open) into.push(this.s.open);
    this.s.open = null;
  }

  drain(): ResponseUsage[] {
    const out: ResponseUsage[] = [];
    this.close(out);
    return out;
  }

  hasOpen(): boolean {
    return this.s.open !== null;
  }

  state(): unknown {
    return this.s;
  }
}

type ModelCall = Extract<DecodedItem, { kind: 'model_call' }>;

/** An assistant line's model call and the tools it called (those with an id to count them by). */
function callOf(items: readonly DecodedItem[]): {
  call: ModelCall | null;
  tools: { id: string; name: string }[];
} {
  let call: ModelCall | null = null;
  const tools: { id: string; name: string }[] = [];
  for (const item of items) {
    if (item.kind === 'model_call') call = item;
    else if (item.kind === 'tool_call' && item.id) tools.push({ id: item.id, name: item.name });
  }
  return { call, tools };
}

/** The counts analytics keep: a count a line gives as negative counts as none. */
function counted(tokens: Tokens) {
  const count = (n: number) => (n > 0 ? n : 0);
  return {
    input: count(tokens.input),
    output: count(tokens.output),
    cacheRead: count(tokens.cacheRead),
    cacheCreation: count(tokens.cacheCreation),
    cacheCreation1h: count(tokens.cacheCreation1h),
  };
}

/** A person's words that may name the conversation: not Claude Code's own tagged lines. */
function promptOf(items: readonly DecodedItem[]): string | null {
  const said = items.find((item) => item.kind === 'user');
  const text = said?.text.trim();
  return text && !text.startsWith('<') ? text : null;
}
