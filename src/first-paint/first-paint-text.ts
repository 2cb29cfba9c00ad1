import { CLOSE, markedParts, OPEN, unmarked } from '../app/shared/marked-text';

/**
 * The first paint's words. Its script is built apart from the console (scripts/first-paint.mjs
 * translates it per locale); `src/i18n-extract.ts` brings this file into the extraction, so its
 * messages are in the translation files with the console's (the same words share one message).
 */
export const FIRST_PAINT_TEXT = {
  you: $localize`You`,
  agent: $localize`Agent`,
  connecting: $localize`connecting…`,
  back: $localize`← Sessions`,
  region: $localize`The conversation, while the console loads`,
  composerLabel: $localize`Message to the agent`,
  composerPlaceholder: $localize`Message the agent (the console is starting: what you type is kept)`,
  composerSends: $localize`Message the agent (Enter to send, Shift+Enter for a new line)`,
  sending: $localize`Sending…`,
  sent: $localize`Sent.`,
  queued: $localize`Queued: it goes after the current turn.`,
  queueFull: $localize`Not sent: the queue is full. Wait for a turn to finish or remove one.`,
  notSent: (reason: string) => $localize`Not sent: ${reason}:reason:`,
  unreachable: $localize`the daemon did not answer.`,
  waitingForAnswer: $localize`Waiting for your answer`,
  question: $localize`Question from the agent`,
  asks: (tool: string) =>
    markedParts(
      $localize`${OPEN}:start_tool:${unmarked(tool)}:tool:${CLOSE}:close_tool: asks permission`,
    ),
  questionWaits: $localize`Its choices show once the console has started.`,
  allowOnce: $localize`Allow once`,
  deny: $localize`Deny`,
  allowed: $localize`Allowed.`,
  denied: $localize`Denied.`,
  answeredElsewhere: $localize`Already answered elsewhere.`,
  notAnswered: (reason: string) => $localize`Not answered: ${reason}:reason:`,
  model: (model: string) => $localize`model ${model}:model:`,
};
