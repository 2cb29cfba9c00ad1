import { StorageCategory } from '../../../contract/operations';

export const CATEGORY_LABELS: Record<StorageCategory, string> = {
  events: 'Conversation events',
  archives: 'Compressed archives',
  metrics: 'Metrics (turns, tool calls)',
  audit: 'Audit trail',
  logs: 'Logs',
  sessions: 'Sessions',
  overhead: 'Database overhead',
};
