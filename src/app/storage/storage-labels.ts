import { ConversationStorage, StorageCategory } from '../../../contract/operations';

export const CATEGORY_LABELS: Record<StorageCategory, string> = {
  events: $localize`Conversation events`,
  archives: $localize`Compressed archives`,
  metrics: $localize`Metrics (turns, tool calls)`,
  audit: $localize`Audit trail`,
  logs: $localize`:storage category:Logs`,
  sessions: $localize`:storage category:Sessions`,
  overhead: $localize`Database overhead`,
};

/** Where a conversation's events are: in the database, in a compressed archive, or gone. */
export const CONVERSATION_LABELS: Record<ConversationStorage['conversation'], string> = {
  hot: $localize`:conversation storage:in the database`,
  compressed: $localize`:conversation storage:compressed`,
  deleted: $localize`:conversation storage:deleted`,
};
