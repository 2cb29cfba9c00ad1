/** How the terminal prints one event of a conversation: a short human line, or nothing. */
export function renderEvent(source: string, data: Record<string, unknown>): string | null {
  if (source === 'host' && data['type'] === 'user') return `you ▸ ${textOf(data['message'])}`;
  if (source === 'relais') return renderRelais(data);
  if (source !== 'agent') return null;
  if (data['type'] === 'assistant') {
    const blocks = contentOf(data['message']);
    const lines = blocks.map((block) => {
      if (block['type'] === 'text') return `agent ▸ ${String(block['text'])}`;
      if (block['type'] === 'tool_use')
        return `tool ▸ ${String(block['name'])} ${summarize(block['input'])}`;
      if (block['type'] === 'thinking') return 'agent ▸ (thinking)';
      return null;
    });
    return lines.filter(Boolean).join('\n') || null;
  }
  if (data['type'] === 'user') {
    const results = contentOf(data['message']).filter((b) => b['type'] === 'tool_result');
    return (
      results
        .map(
          (r) =>
            `result${r['is_error'] ? ' (error)' : ''} ▸ ${firstLine(textOf({ content: r['content'] }))}`,
        )
        .join('\n') || null
    );
  }
  if (data['type'] === 'result') return `— turn ended${data['is_error'] ? ' with an error' : ''} —`;
  return null;
}

function renderRelais(data: Record<string, unknown>): string | null {
  switch (data['subtype']) {
    case 'permission_asked':
      return `? ${String(data['tool_name'])} waits for a person (answer it in the console inbox)`;
    case 'permission_decided':
      return `✓ ${String(data['tool_name'])}: ${String(data['decision'])} by ${String(data['decided_by'])}`;
    case 'permission_auto':
      return data['decision'] === 'deny'
        ? `✗ ${String(data['tool_name'])} refused: ${String(data['reason'])}`
        : null;
    case 'message_queued':
      return `(queued) ${String(data['text'])}`;
    case 'state':
      return data['state'] === 'ended' ? `— session ended (${String(data['end_reason'])}) —` : null;
    default:
      return null;
  }
}

function contentOf(message: unknown): Record<string, unknown>[] {
  const content = (message as { content?: unknown } | null)?.content;
  return Array.isArray(content)
    ? (content.filter((b) => b && typeof b === 'object') as Record<string, unknown>[])
    : [];
}

function textOf(message: unknown): string {
  const content = (message as { content?: unknown } | null)?.content;
  if (typeof content === 'string') return content;
  return contentOf(message)
    .map((b) => (typeof b['text'] === 'string' ? b['text'] : ''))
    .join(' ');
}

function summarize(input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const record = input as Record<string, unknown>;
  const value = record['command'] ?? record['file_path'] ?? record['path'] ?? record['pattern'];
  return typeof value === 'string' ? value : JSON.stringify(input).slice(0, 120);
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
