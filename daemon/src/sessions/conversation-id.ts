import { isConversationId } from '../../../contract/names.js';
import { apiError } from '../http/errors.js';

/** Refuses an id that is not the agent's own conversation id (a UUID) before any agent sees it. */
export function assertConversationId(id: string): void {
  if (!isConversationId(id))
    throw apiError(
      'invalid_conversation_id',
      `The conversation id ${JSON.stringify(id.slice(0, 80))} is not a UUID: this conversation cannot be resumed.`,
    );
}
