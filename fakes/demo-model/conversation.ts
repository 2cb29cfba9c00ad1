/** What the demo model needs to know about one Messages API request body. */
export interface ToolResultInfo {
  toolUseId: string;
  text: string;
  isError: boolean;
}

export interface Conversation {
  model: string;
  stream: boolean;
  /** Last user text that is not a `<system-reminder>`; undefined when there is none. */
  lastUserText?: string;
  /** tool_result blocks that follow `lastUserText`, in order. Their count is the script step. */
  toolResults: ToolResultInfo[];
  /** Working directory announced by Claude Code, when it can be found. */
  cwd?: string;
  /**
   * Names of the tools the request offers the model: its `tools`, and the MCP tool names announced
   * elsewhere (Claude Code defers MCP tools and names them in its system text or a reminder).
   * What the model itself wrote and the tool results are not read.
   */
  tools: string[];
  /** The system prompt's text, its blocks joined by new lines. */
  system: string;
}

const REMINDER = /<system-reminder>[\s\S]*?(<\/system-reminder>|$)/g;

// Claude Code 2.1.332 sends the environment as a role:"system" entry of `messages`
// ("Primary working directory: /x"); the other patterns cover older or other layouts.
const CWD_PATTERNS: RegExp[] = [
  /Primary working directory:[ \t]*(\S[^\n]*)/,
  /<cwd>([^<]+)<\/cwd>/,
  /Working directory:[ \t]*(\S[^\n]*)/,
];

export function readConversation(body: unknown): Conversation {
  const root = asRecord(body);
  const model = typeof root['model'] === 'string' ? root['model'] : 'demo-model';
  const stream = root['stream'] === true;
  const messages = Array.isArray(root['messages']) ? root['messages'] : [];
  let lastUserText: string | undefined;
  let toolResults: ToolResultInfo[] = [];
  for (const raw of messages) {
    const message = asRecord(raw);
    if (message['role'] !== 'user') continue;
    for (const block of contentBlocks(message['content'])) {
      if (block['type'] === 'text' && typeof block['text'] === 'string') {
        const text = stripReminders(block['text']);
        if (text === '') continue;
        lastUserText = text;
        toolResults = [];
      } else if (block['type'] === 'tool_result') {
        toolResults.push({
          toolUseId: typeof block['tool_use_id'] === 'string' ? block['tool_use_id'] : '',
          text: toolResultText(block['content']),
          isError: block['is_error'] === true,
        });
      }
    }
  }
  const cwd = findCwd([root['system'], messages]);
  return {
    model,
    stream,
    lastUserText,
    toolResults,
    ...(cwd === undefined ? {} : { cwd }),
    tools: offeredTools(root['tools'], root['system'], messages),
    system: systemText(root['system']),
  };
}

const MCP_NAME = /mcp__[A-Za-z0-9_-]+__[A-Za-z0-9_-]+/g;

function offeredTools(tools: unknown, system: unknown, messages: unknown[]): string[] {
  const named = (Array.isArray(tools) ? tools : [])
    .map(asRecord)
    .flatMap((tool) => (typeof tool['name'] === 'string' ? [tool['name']] : []));
  const texts = [JSON.stringify(tools ?? null), systemText(system)];
  for (const raw of messages) {
    const message = asRecord(raw);
    if (message['role'] === 'assistant') continue;
    for (const block of contentBlocks(message['content']))
      if (block['type'] === 'text' && typeof block['text'] === 'string') texts.push(block['text']);
  }
  const announced = texts.flatMap((text) => text.match(MCP_NAME) ?? []);
  return [...new Set([...named, ...announced])];
}

function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  return contentBlocks(system)
    .flatMap((block) => (typeof block['text'] === 'string' ? [block['text']] : []))
    .join('\n');
}

export function stripReminders(text: string): string {
  return text.replace(REMINDER, '').trim();
}

function contentBlocks(content: unknown): Record<string, unknown>[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.map(asRecord);
}

function toolResultText(content: unknown): string {
  return contentBlocks(content)
    .filter((block) => block['type'] === 'text' && typeof block['text'] === 'string')
    .map((block) => String(block['text']))
    .join('\n');
}

function findCwd(sources: unknown[]): string | undefined {
  const texts: string[] = [];
  collectTexts(sources, texts, 0);
  for (const pattern of CWD_PATTERNS) {
    for (const text of texts) {
      const match = pattern.exec(text);
      const found = match?.[1]?.trim();
      if (found) return found;
    }
  }
  return undefined;
}

function collectTexts(value: unknown, out: string[], depth: number): void {
  if (depth > 6) return;
  if (typeof value === 'string') {
    out.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) collectTexts(item, out, depth + 1);
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    collectTexts(record['text'], out, depth + 1);
    collectTexts(record['content'], out, depth + 1);
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
