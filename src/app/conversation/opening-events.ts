import { SessionEvent } from '../../../contract/api';
import { SessionsApi } from '../sessions/sessions-api';

/** The conversation's first events, where its creation and the agent's context line are. */
export const OPENING_EVENTS = 5;

/**
 * The first events of a conversation (its creation with the instructions it started with, the
 * agent's context line), read once per conversation however many parts ask.
 */
export class OpeningEvents {
  private opening: { id: string; events: Promise<SessionEvent[]> } | null = null;

  constructor(private readonly api: SessionsApi) {}

  read(id: string): Promise<SessionEvent[]> {
    if (this.opening?.id !== id) {
      const events = this.api
        .events(id, { after: 0, limit: OPENING_EVENTS })
        .then((page) => page.items);
      // A failed read is not kept: the next one asks again.
      events.catch(() => {
        if (this.opening?.events === events) this.opening = null;
      });
      this.opening = { id, events };
    }
    return this.opening.events;
  }

  /** The agent's context line (init), from the opening events when it is one of them. */
  async contextEvent(id: string, initSeq: number | null): Promise<SessionEvent | null> {
    if (initSeq === null) return null;
    if (initSeq <= OPENING_EVENTS) {
      const init = (await this.read(id)).find((event) => event.seq === initSeq);
      if (init) return init;
    }
    const page = await this.api.events(id, { after: initSeq - 1, limit: 1 });
    return page.items[0] ?? null;
  }
}
