import {
  INSTRUCTIONS_MAX,
  instructionsProblem,
  type Instructions,
  type StartInstructions,
} from '../../../contract/library.js';
import type { Db } from '../db/database.js';
import { nowIso } from '../ids.js';

/** Permanent instructions by scope: `common`, or a subscription id. */
export class InstructionsRepo {
  constructor(private readonly db: Db) {}

  list(): Instructions[] {
    return this.db
      .prepare('SELECT scope, text, updated_at FROM instructions ORDER BY scope')
      .all() as Instructions[];
  }

  get(scope: string): Instructions {
    const row = this.db
      .prepare('SELECT scope, text, updated_at FROM instructions WHERE scope = ?')
      .get(scope) as Instructions | undefined;
    return row ?? { scope, text: '', updated_at: null };
  }

  put(scope: string, text: string): Instructions {
    this.db
      .prepare(
        'INSERT INTO instructions (scope, text, updated_at) VALUES (?, ?, ?) ON CONFLICT(scope) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at',
      )
      .run(scope, text, nowIso());
    return this.get(scope);
  }

  /**
   * What a new session of the subscription starts with (empty texts are none). A text stored before
   * the route refused control characters would stop every launch: it is left out, and said so.
   */
  forStart(subscriptionId: string): StartInstructions {
    const skipped: { scope: string; reason: string }[] = [];
    const text = (scope: string): string | null => {
      const value = this.get(scope).text.trim();
      // Past the maximum, the argument could pass the system's limit on one argument (128 KiB).
      const problem =
        value.length > INSTRUCTIONS_MAX
          ? `text is over ${INSTRUCTIONS_MAX} characters`
          : instructionsProblem(value);
      if (problem) skipped.push({ scope, reason: `left out: ${problem}` });
      return value === '' || problem ? null : value;
    };
    const start = { common: text('common'), subscription: text(subscriptionId) };
    return skipped.length > 0 ? { ...start, skipped } : start;
  }
}

/** The text appended to the system prompt: the common instructions, then the subscription's. */
export function appendedPrompt(start: StartInstructions): string | null {
  const parts = [start.common, start.subscription].filter((t): t is string => t !== null);
  return parts.length === 0 ? null : parts.join('\n\n');
}
