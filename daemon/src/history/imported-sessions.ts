import type { ImportedFacts } from '../sessions/imported-session-repo.js';

/** What one read of a file learnt about its conversation. */
export type ConversationFacts = ImportedFacts;

export const noFacts = (): ConversationFacts => ({
  firstAtMs: null,
  lastAtMs: null,
  cwd: null,
  model: null,
  prompt: null,
  title: null,
});

/** The session rows of imported conversations are the sessions folder's (one owner per table). */
export { ImportedSessionRepo as ImportedSessions } from '../sessions/imported-session-repo.js';
