// No zod here: the first paint (src/first-paint) reads prompts before the console's bundle is in.

/**
 * A person's prompt in an imported transcript: the agent wrote it there (camel-case `sessionId`,
 * unlike its stream), as a user line of text rather than tool results; its own notes are `isMeta`.
 */
export function isTranscriptPrompt(data: unknown): boolean {
  if (!data || typeof data !== 'object') return false;
  const line = data as Record<string, unknown>;
  return (
    line['type'] === 'user' &&
    typeof line['sessionId'] === 'string' &&
    line['isMeta'] !== true &&
    line['isSidechain'] !== true
  );
}
