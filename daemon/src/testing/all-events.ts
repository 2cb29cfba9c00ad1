import assert from 'node:assert/strict';
import type { SessionEvent } from '../../../contract/api.js';
import type { Answer } from './harness.js';

interface Caller {
  call<T = any>(method: string, path: string): Promise<Answer<T>>;
}

interface Page {
  items: SessionEvent[];
  next_cursor: string | null;
}

/**
 * Every stored event of a session, read forwards page by page through the API, as a client must:
 * a page is cut by its count and by its weight, so one page never stands for the whole.
 */
export async function allEvents(daemon: Caller, sessionId: string): Promise<SessionEvent[]> {
  const all: SessionEvent[] = [];
  for (let after = 0; ;) {
    const page = await daemon.call<Page>(
      'GET',
      `/api/sessions/${sessionId}/events?after=${after}&limit=500`,
    );
    assert.equal(page.status, 200, page.text);
    all.push(...page.body.items);
    if (!page.body.next_cursor) return all;
    after = Number(page.body.next_cursor);
  }
}
