import { StorageCategory } from '../../../contract/operations';

export const CATEGORY_LABELS: Record<StorageCategory, string> = {
  events: $localize`Conversation events`,
  archives: $localize`Compressed archives`,
  metrics: $localize`Metrics (turns, tool calls)`,
  audit: $localize`Audit trail`,
  logs: 'Logs',
  sessions: 'Sessions',
  overhead: $localize`Database overhead`,
};
