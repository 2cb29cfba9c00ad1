import { basename, join } from 'node:path';
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

const ROLLOUT =
  /^rollout-.*([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

interface CodexState {
  model: string | null;
  /** Tools called since the last counted response: they belong to the next one. */
  tools: { id: string; name: string }[];
  inputAtMs: number | null;
  /** This Codex writes `token_usage_record` per response; older ones only `token_count`. */
  perResponse: boolean;
  thread: string | null;
}

const TOOL_ITEMS = new Set([
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'web_search_call',
]);

/** Codex rollouts: `<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`. */
export const codexRollouts: TranscriptReader = {
  agent: 'codex',
  roots: (codexHome) => [join(codexHome, 'sessions')],
  accepts: (path) => ROLLOUT.test(basename(path)),
  conversationOf: (path) => ROLLOUT.exec(basename(path))?.[1] ?? null,
  parser: (state) => new CodexParser(state as CodexState | null),
};

class CodexParser implements TranscriptParser {
  private readonly s: CodexState;

  constructor(state: CodexState | null) {
    this.s = state ?? { model: null, tools: [], inputAtMs: null, perResponse: false, thread: null };
  }

  line(value: unknown): LineFacts {
    const line = obj(value);
    const payload = obj(line?.['payload']);
    if (!line || !payload) return {};
    const facts: LineFacts = {};
    const at = timeOf(line['timestamp']);
    if (at !== undefined) facts.atMs = at;
    switch (line['type']) {
      case 'session_meta': {
        const id = str(payload['id']);
        if (id) facts.conversationId = this.s.thread = id;
        const cwd = str(payload['cwd']);
        if (cwd) facts.cwd = cwd;
        break;
      }
      case 'turn_context': {
        const model = str(payload['model']);
        if (model) facts.model = this.s.model = model;
        const cwd = str(payload['cwd']);
        if (cwd) facts.cwd = cwd;
        break;
      }
      case 'response_item':
        this.item(payload, at, facts);
        break;
      case 'token_usage_record': {
        this.s.perResponse = true;
        const id = str(payload['response_id']);
        facts.responses = [this.response(id ? `codex:${id}` : null, obj(payload['usage']), at)];
        break;
      }
      case 'event_msg':
        if (payload['type'] === 'token_count' && !this.s.perResponse) {
          const info = obj(payload['info']);
          const total = num(obj(info?.['total_token_usage'])?.['total_tokens']);
          const key = this.s.thread && total ? `codex:${this.s.thread}:${total}` : null;
          if (info) facts.responses = [this.response(key, obj(info['last_token_usage']), at)];
        }
        break;
    }
    return facts;
  }

  private item(payload: Json, at: number | undefined, facts: LineFacts): void {
    const type = str(payload['type']) ?? '';
    if (TOOL_ITEMS.has(type)) {
      this.s.tools.push({
        id: str(payload['call_id']) ?? str(payload['id']) ?? '',
        name: str(payload['name']) ?? type,
      });
      return;
    }
    if (type.endsWith('_output') && at !== undefined) this.s.inputAtMs = at;
    if (type !== 'message' || payload['role'] !== 'user') return;
    if (at !== undefined) this.s.inputAtMs = at;
    const content = Array.isArray(payload['content']) ? payload['content'] : [];
    const text = content
      .map((c) => (obj(c)?.['type'] === 'input_text' ? (str(obj(c)?.['text']) ?? '') : ''))
      .join(' ')
      .trim();
    // Codex writes its own context (environment, AGENTS.md) as user items, tagged or headed.
    if (text && !text.startsWith('<') && !text.startsWith('# AGENTS.md')) facts.prompt = text;
  }

  private response(key: string | null, usage: Json | null, at: number | undefined): ResponseUsage {
    const input = num(usage?.['input_tokens']);
    const cached = Math.min(num(usage?.['cached_input_tokens']), input);
    const endedAt = at ?? this.s.inputAtMs ?? 0;
    const tools = this.s.tools.filter((t) => t.id);
    this.s.tools = [];
    return {
      key,
      model: this.s.model ?? 'unknown',
      startedAtMs: Math.min(this.s.inputAtMs ?? endedAt, endedAt),
      endedAtMs: endedAt,
      input: input - cached,
      output: num(usage?.['output_tokens']),
      cacheRead: cached,
      cacheCreation: num(usage?.['cache_write_input_tokens']),
      cacheCreation1h: 0,
      reasoning: num(usage?.['reasoning_output_tokens']),
      tools,
    };
  }

  drain(): ResponseUsage[] {
    return [];
  }

  hasOpen(): boolean {
    return false;
  }

  state(): unknown {
    return this.s;
  }
}
