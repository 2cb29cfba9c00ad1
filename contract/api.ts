/**
 * The public API contract shared by the daemon (which validates with it) and the console
 * (which parses responses with it). Pure TypeScript + zod: no Node or browser imports.
 * The sessions' core is written in api/, one file per part; the features with a contract of their
 * own have a file beside this one (usage, mcp, library, permissions…). Every import of
 * `contract/api` keeps working through this index.
 */
export * from './api/common.js';
export * from './api/subscriptions.js';
export * from './api/sessions.js';
export * from './api/events.js';
export * from './api/queue.js';
export * from './api/permissions.js';
export * from './api/history-import.js';
export * from './api/streams.js';
