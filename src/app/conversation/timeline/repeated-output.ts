import type { SessionEvent } from '../../../../contract/api';
import { isRecord } from '../../shared/is-record';

/**
 * Claude Code writes a Bash command's output twice in its line: as the tool result the model
 * reads, and as the `stdout` of the result's details. Parsed, they are two equal strings, up to
 * the reader's clip each (8,000 characters for the console); the second is made the first, so a
 * conversation of long outputs keeps half of them in memory. The event says the same as before.
 */
export function shareRepeatedOutput(event: SessionEvent): void {
  const line = event.data;
  if (!isRecord(line) || line['type'] !== 'user') return;
  const details = line['tool_use_result'];
  const message = line['message'];
  if (!isRecord(details) || !isRecord(message) || typeof details['stdout'] !== 'string') return;
  const content = message['content'];
  if (!Array.isArray(content)) return;
  for (const block of content) {
    if (isRecord(block) && block['content'] === details['stdout']) {
      details['stdout'] = block['content'];
      return;
    }
  }
}
