/**
 * Transcripts shaped like the ones Claude Code and Codex write (fields as measured with the pinned
 * versions, see PROTOCOLS.md), for the history import's tests and benchmark: prompts, replies of
 * several content blocks (one line each, same message and request ids), tool calls and their
 * results, Claude Code's bookkeeping lines, and resumed copies.
 */

export interface ClaudeConversation {
  sessionId: string;
  cwd: string;
  startMs: number;
  turns: number;
  model?: string;
  /** Size of each tool result's text. */
  resultBytes?: number;
  /** Prefix of message and request ids, so that two conversations never share one. */
  idPrefix?: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** What a Claude Code conversation's lines are written with: its ids, its clock, its writer. */
interface ClaudeWriter {
  push(line: Record<string, unknown>): void;
  clock: { t: number };
  prefix: string;
  model: string;
  filler: string;
}

/** The lines of one Claude Code conversation: `turns` prompts, each with a tool call and a reply. */
export function claudeLines(c: ClaudeConversation): string[] {
  const common = {
    userType: 'external',
    entrypoint: 'cli',
    cwd: c.cwd,
    sessionId: c.sessionId,
    version: '2.1.332',
    gitBranch: 'main',
  };
  const lines: string[] = [];
  let parent: string | null = null;
  const writer: ClaudeWriter = {
    push: (line) => {
      const uuid = `${writer.prefix}-${lines.length}`;
      lines.push(
        JSON.stringify({ parentUuid: parent, isSidechain: false, ...line, uuid, ...common }),
      );
      parent = uuid;
    },
    clock: { t: c.startMs },
    prefix: c.idPrefix ?? c.sessionId.slice(0, 8),
    model: c.model ?? 'claude-sonnet-4-5',
    filler: 'x'.repeat(c.resultBytes ?? 2000),
  };
  for (let turn = 0; turn < c.turns; turn++) {
    writer.push({
      type: 'user',
      message: {
        role: 'user',
        content: `Turn ${turn}: look at the tests in src/ and fix the failing one`,
      },
      timestamp: iso((writer.clock.t += 5000)),
    });
    lines.push(
      JSON.stringify({ type: 'last-prompt', lastPrompt: `Turn ${turn}`, sessionId: c.sessionId }),
    );
    for (const step of [0, 1]) claudeStep(writer, turn, step);
  }
  return lines;
}

/** One model call of a turn: its text, then (the first) a tool call and its result. */
function claudeStep(w: ClaudeWriter, turn: number, step: number): void {
  const id = `msg_${w.prefix}_${turn}_${step}`;
  const requestId = `req_${w.prefix}_${turn}_${step}`;
  const usage = {
    input_tokens: 1200 + turn,
    cache_creation_input_tokens: 300,
    cache_read_input_tokens: 9000,
    output_tokens: 150 + step,
    service_tier: 'standard',
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 300 },
  };
  const message = (content: unknown[]) => ({
    id,
    type: 'message',
    role: 'assistant',
    model: w.model,
    content,
    stop_reason: step === 0 ? 'tool_use' : 'end_turn',
    usage,
  });
  const at = iso((w.clock.t += 2000));
  w.push({
    type: 'assistant',
    message: message([{ type: 'text', text: `Looking (step ${step}).` }]),
    requestId,
    timestamp: at,
  });
  if (step === 1) return;
  const toolId = `toolu_${w.prefix}_${turn}`;
  w.push({
    type: 'assistant',
    message: message([
      {
        type: 'tool_use',
        id: toolId,
        name: turn % 2 ? 'Read' : 'Bash',
        input: { command: 'npm test' },
      },
    ]),
    requestId,
    timestamp: at,
  });
  w.push({
    type: 'user',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: toolId, content: w.filler }],
    },
    toolUseResult: { stdout: w.filler, stderr: '', interrupted: false },
    timestamp: iso((w.clock.t += 1500)),
  });
}

/**
 * A resumed copy, as older Claude Code versions wrote it: a new file (new session id) that starts
 * with the earlier conversation's lines, then goes on.
 */
export function resumedClaudeLines(
  earlier: ClaudeConversation,
  sessionId: string,
  more: number,
): string[] {
  const copied = claudeLines(earlier).map((line) =>
    line.replaceAll(`"sessionId":"${earlier.sessionId}"`, `"sessionId":"${sessionId}"`),
  );
  const next = claudeLines({
    ...earlier,
    sessionId,
    turns: more,
    startMs: earlier.startMs + earlier.turns * 20_000,
    idPrefix: `${earlier.idPrefix ?? earlier.sessionId.slice(0, 8)}r`,
  });
  return [...copied, ...next];
}

export interface CodexRollout {
  threadId: string;
  cwd: string;
  startMs: number;
  turns: number;
  model?: string;
}

/** The lines of one Codex rollout: session meta, then per turn a prompt, a command and a reply. */
export function codexLines(r: CodexRollout): string[] {
  const lines: string[] = [];
  let t = r.startMs;
  const push = (type: string, payload: Record<string, unknown>): void => {
    lines.push(JSON.stringify({ timestamp: iso((t += 500)), type, payload }));
  };
  push('session_meta', {
    id: r.threadId,
    timestamp: iso(t),
    cwd: r.cwd,
    originator: 'codex_cli_rs',
    cli_version: '0.171.0',
  });
  let total = 0;
  for (let turn = 0; turn < r.turns; turn++) {
    push('turn_context', { turn_id: `turn-${turn}`, cwd: r.cwd, model: r.model ?? 'gpt-5.5' });
    push('response_item', {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: `Codex turn ${turn}: run the tests` }],
    });
    for (const step of [0, 1]) total = codexStep(push, r.threadId, { turn, step, total });
    push('response_item', {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'All tests pass.' }],
    });
  }
  return lines;
}

/**
 * One model call of a Codex turn: (the first) a command, its usage lines, (the first) the
 * command's output. Returns the thread's token total after it.
 */
function codexStep(
  push: (type: string, payload: Record<string, unknown>) => void,
  threadId: string,
  { turn, step, total }: { turn: number; step: number; total: number },
): number {
  if (step === 0)
    push('response_item', {
      type: 'function_call',
      name: 'exec_command',
      arguments: '{"cmd":"npm test"}',
      call_id: `call_${turn}`,
    });
  const usage = {
    input_tokens: 1000,
    cached_input_tokens: 400,
    cache_write_input_tokens: 0,
    output_tokens: 50 + step,
    reasoning_output_tokens: 0,
    total_tokens: 1050 + step,
  };
  const after = total + usage.total_tokens;
  push('token_usage_record', {
    thread_id: threadId,
    turn_id: `turn-${turn}`,
    response_id: `resp_${threadId.slice(0, 8)}_${turn}_${step}`,
    usage,
  });
  push('event_msg', {
    type: 'token_count',
    info: { total_token_usage: { ...usage, total_tokens: after }, last_token_usage: usage },
  });
  if (step === 0)
    push('response_item', { type: 'function_call_output', call_id: `call_${turn}`, output: 'ok' });
  return after;
}
