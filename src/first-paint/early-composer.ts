import { OWN_CONNECTIONS } from '../app/core/api-connections';
import { CONSOLE_APP } from '../app/core/console-app';
import { slashQuery } from '../app/conversation/composer/slash-commands';
import { FIRST_PAINT_TEXT } from './first-paint-text';
import {
  type EarlySend,
  type EarlySendOutcome,
  FIRST_PAINT_COMPOSER_ID,
  noteFirstPaintKey,
  noteFirstPaintInput,
  noteFirstPaintSent,
  recordEarlySend,
} from './handoff';

/** Delivers one message as the console's composer does with Enter (SessionsApi.send). */
export type EarlySender = (text: string) => Promise<EarlySendOutcome>;

/**
 * POSTs a message to the session the way the console's composer does (the daemon sends it now
 * when the agent is idle, else queues it), with the key the first paint read its rows with: in a
 * header, to this page's own origin only. Any failure comes back as an outcome, never thrown.
 */
export function earlySender(
  sessionId: string,
  key: string,
  post: typeof fetch = (input, init) => fetch(input, init),
): EarlySender {
  return async (text) => {
    try {
      const response = await post(`/api/sessions/${sessionId}/messages`, {
        method: 'POST',
        // Not behind the console's modules, asked at the same moment (api-connections.ts).
        ...OWN_CONNECTIONS,
        headers: {
          Authorization: `Bearer ${key}`,
          'X-Relais-App': CONSOLE_APP,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ text }),
      });
      const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      if (response.ok) return { ok: true, delivery: String(body['delivery'] ?? 'sent') };
      return {
        ok: false,
        status: response.status,
        code: typeof body['error_code'] === 'string' ? body['error_code'] : 'http_error',
        message: typeof body['message'] === 'string' ? body['message'] : `HTTP ${response.status}`,
      };
    } catch {
      return {
        ok: false,
        status: 0,
        code: 'daemon_unreachable',
        message: FIRST_PAINT_TEXT.unreachable,
      };
    }
  };
}

/** What the first paint says of a send once its answer has come. */
export function outcomeText(outcome: EarlySendOutcome): string {
  if (outcome.ok)
    return outcome.delivery === 'queued' ? FIRST_PAINT_TEXT.queued : FIRST_PAINT_TEXT.sent;
  if (outcome.code === 'queue_full') return FIRST_PAINT_TEXT.queueFull;
  return FIRST_PAINT_TEXT.notSent(outcome.message);
}

/**
 * The first paint's composer: a box that takes what the person types while the console starts,
 * and sends on Enter as the console's composer would (Shift+Enter a new line; the text leaves the
 * box at once so the next can be typed; sends go one after the other, in the order typed). The
 * console's composer takes over its text, selection, focus and the sends still on their way
 * (handoff.ts). Without a sender, Enter keeps the text.
 */
export function earlyComposer(doc: Document, send: EarlySender | null): HTMLElement {
  const box = doc.createElement('textarea');
  box.id = FIRST_PAINT_COMPOSER_ID;
  box.rows = 2;
  box.setAttribute('aria-label', FIRST_PAINT_TEXT.composerLabel);
  box.setAttribute('aria-describedby', `${FIRST_PAINT_COMPOSER_ID}-hint`);
  box.placeholder = send ? FIRST_PAINT_TEXT.composerSends : FIRST_PAINT_TEXT.composerPlaceholder;
  const hint = doc.createElement('p');
  hint.id = `${FIRST_PAINT_COMPOSER_ID}-hint`;
  hint.className = 'fp-hint';
  hint.setAttribute('aria-live', 'polite');
  let chain: Promise<unknown> = Promise.resolve();
  // Given the focus, the person is about to type: the console's start waits as for a key.
  box.addEventListener('focus', () => noteFirstPaintKey());
  box.addEventListener('input', () => noteFirstPaintInput());
  box.addEventListener('keydown', (event) => {
    noteFirstPaintKey();
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    const text = box.value.trim();
    // A bare `/word` is a command being typed: the console's list completes it on Enter, from
    // commands the first paint does not know, so it stays for the console.
    if (!send || !text || slashQuery(box.value) !== null) return;
    box.value = '';
    noteFirstPaintSent();
    const outcome = chain.then(() => send(text));
    chain = outcome;
    const record: EarlySend = { text, outcome };
    recordEarlySend(record);
    hint.classList.remove('fp-error');
    hint.textContent = FIRST_PAINT_TEXT.sending;
    void outcome.then((result) => {
      // Gone with the first paint: the console's composer shows this one.
      if (record.handedOver) return;
      record.handled = true;
      hint.textContent = outcomeText(result);
      hint.classList.toggle('fp-error', !result.ok);
      // Nothing typed is lost: a refused text comes back, unless something new was typed since.
      if (!result.ok && !box.value) box.value = text;
    });
  });
  const bottom = doc.createElement('div');
  bottom.className = 'fp-composer';
  bottom.append(box, hint);
  return bottom;
}
