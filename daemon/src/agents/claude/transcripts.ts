import { basename, join, sep } from 'node:path';
import {
  num,
  obj,
  str,
  timeOf,
  type Json,
  type LineFacts,
  type ResponseUsage,
  type TranscriptParser,
  type TranscriptReader,
} from '../transcript-reader.js';

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
        const prompt = line['isMeta'] || line['isSidechain'] ? null : promptOf(line['message']);
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
    const message = obj(line['message']);
    const model = str(message?.['model']);
    // A synthetic message is Claude Code's own (an API error shown as a reply): nothing was billed.
    if (!message || !model || model === '<synthetic>') return;
    facts.model = model;
    const usage = obj(message['usage']);
    if (!usage) return;
    const id = str(message['id']);
    const request = str(line['requestId']);
    const key = id && request ? `claude:${id}:${request}` : null;
    const endedAt = at ?? this.s.inputAtMs ?? 0;
    const tools = toolsOf(message);
    const open = this.s.open;
    if (open && key !== null && open.key === key) {
      // The same response on another line: keep the largest counts (an early line may carry a
      // streaming snapshot), and every tool it called.
      open.input = Math.max(open.input, num(usage['input_tokens']));
      open.output = Math.max(open.output, num(usage['output_tokens']));
      open.cacheRead = Math.max(open.cacheRead, num(usage['cache_read_input_tokens']));
      open.cacheCreation = Math.max(open.cacheCreation, num(usage['cache_creation_input_tokens']));
      open.cacheCreation1h = Math.max(open.cacheCreation1h, oneHour(usage));
      open.endedAtMs = Math.max(open.endedAtMs, endedAt);
      for (const tool of tools)
        if (!open.tools.some((t) => t.id === tool.id)) open.tools.push(tool);
      return;
    }
    this.close(closed);
    const response: ResponseUsage = {
      key,
      model,
      startedAtMs: Math.min(this.s.inputAtMs ?? endedAt, endedAt),
      endedAtMs: endedAt,
      input: num(usage['input_tokens']),
      output: num(usage['output_tokens']),
      cacheRead: num(usage['cache_read_input_tokens']),
      cacheCreation: num(usage['cache_creation_input_tokens']),
      cacheCreation1h: oneHour(usage),
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

function oneHour(usage: Json): number {
  return num(obj(usage['cache_creation'])?.['ephemeral_1h_input_tokens']);
}

function toolsOf(message: Json): { id: string; name: string }[] {
  const content = message['content'];
  if (!Array.isArray(content)) return [];
  const tools: { id: string; name: string }[] = [];
  for (const item of content) {
    const block = obj(item);
    const id = str(block?.['id']);
    if (block?.['type'] === 'tool_use' && id)
      tools.push({ id, name: str(block['name']) ?? 'unknown' });
  }
  return tools;
}

/** A person's words: text content, not tool results, not Claude Code's own tagged lines. */
function promptOf(message: unknown): string | null {
  const content = obj(message)?.['content'];
  let text: string | null = null;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    const blocks = content.map(obj);
    if (blocks.some((b) => b?.['type'] === 'tool_result')) return null;
    text = blocks
      .map((b) => (b?.['type'] === 'text' ? (str(b['text']) ?? '') : ''))
      .join(' ')
      .trim();
  }
  if (!text || text.trimStart().startsWith('<')) return null;
  return text;
}
