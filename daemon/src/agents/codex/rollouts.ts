import { basename, join } from 'node:path';
import { decodeRollout, type Tokens } from '../../../../contract/formats/index.js';
import {
  finite,
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

  /**
   * What a line says (model, prompt, tool calls, tokens) comes from Codex's rollout decoder; the file's
   * bookkeeping (the thread, the folder, the time, when an input was written) is read here.
   */
  line(value: unknown): LineFacts {
    const line = obj(value);
    const payload = obj(line?.['payload']);
    if (!line || !payload) return {};
    const facts: LineFacts = {};
    const at = timeOf(line['timestamp']);
    if (at !== undefined) facts.atMs = at;
    const type = line['type'];
    if (type === 'session_meta') {
      const id = str(payload['id']);
      if (id) facts.conversationId = this.s.thread = id;
    }
    if (type === 'session_meta' || type === 'turn_context') {
      const cwd = str(payload['cwd']);
      if (cwd) facts.cwd = cwd;
    }
    if (type === 'response_item' && isInput(payload) && at !== undefined) this.s.inputAtMs = at;
    if (type === 'token_usage_record') this.s.perResponse = true;
    // This Codex reports each response (token_usage_record): its running count then repeats them.
    const counted = type === 'token_usage_record' || (type === 'event_msg' && !this.s.perResponse);
    // The file is a rollout: its lines are read as such, whatever else they hold.
    for (const item of decodeRollout(line)) {
      if (item.kind === 'model') facts.model = this.s.model = item.model;
      else if (item.kind === 'user') facts.prompt = item.text;
      else if (item.kind === 'tool_call') this.s.tools.push({ id: item.id ?? '', name: item.name });
      else if (item.kind === 'model_call' && item.tokens && counted) {
        const key = item.id ? `codex:${item.id}` : this.runningKey(payload);
        facts.responses = [this.response(key, item.tokens, at)];
      }
    }
    return facts;
  }

  /**
   * An older Codex's report names no response: the thread's running total of tokens tells one
   * from the next, and the same one in a resumed copy of the file.
   */
  private runningKey(payload: Json): string | null {
    const total = finite(obj(obj(payload['info'])?.['total_token_usage'])?.['total_tokens']);
    return this.s.thread && total !== null && total > 0 ? `codex:${this.s.thread}:${total}` : null;
  }

  private response(key: string | null, tokens: Tokens, at: number | undefined): ResponseUsage {
    const count = (n: number | null) => (n !== null && n > 0 ? n : 0);
    const endedAt = at ?? this.s.inputAtMs ?? 0;
    const tools = this.s.tools.filter((t) => t.id);
    this.s.tools = [];
    return {
      key,
      model: this.s.model ?? 'unknown',
      startedAtMs: Math.min(this.s.inputAtMs ?? endedAt, endedAt),
      endedAtMs: endedAt,
      input: count(tokens.input),
      output: count(tokens.output),
      cacheRead: count(tokens.cacheRead),
      cacheCreation: count(tokens.cacheCreation),
      cacheCreation1h: 0,
      reasoning: count(tokens.reasoning),
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

/** An item written as the model's input (the person's or Codex's words, a tool's output): a response starts after it. */
function isInput(payload: Json): boolean {
  const type = str(payload['type']) ?? '';
  return type.endsWith('_output') || (type === 'message' && payload['role'] === 'user');
}
