import { OWN_CONNECTIONS } from '../app/core/api-connections';
import { CONSOLE_APP } from '../app/core/console-app';
import { Arming } from '../app/permissions/arming';
import { subjectOf } from '../app/permissions/permission-subject';
import { FIRST_PAINT_TEXT } from './first-paint-text';
import { notePromptAnswered, notePromptInView } from './handoff';

/** A pending prompt as the first paint reads it: only what its card shows, checked by hand. */
export interface EarlyPrompt {
  id: string;
  tool_name: string;
  input: Record<string, unknown>;
  description: string | null;
  blocked_path: string | null;
  is_question: boolean;
}

type Decision = { decision: 'allow' | 'deny'; scope: 'once' };
/** How an answer ended: 2xx, or the daemon's status and message (409: answered elsewhere). */
export type DecisionOutcome = { ok: true } | { ok: false; status: number; message: string };
export type EarlyDecider = (id: string, body: Decision) => Promise<DecisionOutcome>;

const headers = (key: string) => ({
  Authorization: `Bearer ${key}`,
  'X-Relais-App': CONSOLE_APP,
  'Content-Type': 'application/json',
});

/** The session's pending prompts, oldest first, as the inbox reads them; [] on any failure. */
export async function readEarlyPrompts(
  sessionId: string,
  key: string,
  get: typeof fetch = (input, init) => fetch(input, init),
): Promise<EarlyPrompt[]> {
  try {
    const url = `/api/permissions?state=pending&session=${sessionId}&limit=20`;
    const response = await get(url, { ...OWN_CONNECTIONS, headers: headers(key) });
    const body = (await response.json()) as { items?: unknown };
    return response.ok && Array.isArray(body.items) ? body.items.filter(isEarlyPrompt) : [];
  } catch {
    return [];
  }
}

function isEarlyPrompt(value: unknown): value is EarlyPrompt {
  const prompt = value as Record<string, unknown> | null;
  const textOrNull = (field: unknown) => field === null || typeof field === 'string';
  return (
    typeof prompt === 'object' &&
    prompt !== null &&
    typeof prompt['id'] === 'string' &&
    typeof prompt['tool_name'] === 'string' &&
    typeof prompt['input'] === 'object' &&
    prompt['input'] !== null &&
    textOrNull(prompt['description']) &&
    textOrNull(prompt['blocked_path']) &&
    typeof prompt['is_question'] === 'boolean'
  );
}

/** Answers a prompt as the console's card does, with the key in a header, to this origin only. */
export function earlyDecider(
  key: string,
  post: typeof fetch = (input, init) => fetch(input, init),
): EarlyDecider {
  return async (id, body) => {
    try {
      const response = await post(`/api/permissions/${encodeURIComponent(id)}/decision`, {
        method: 'POST',
        ...OWN_CONNECTIONS,
        headers: headers(key),
        body: JSON.stringify(body),
      });
      if (response.ok) return { ok: true };
      const error = (await response.json().catch(() => ({}))) as { message?: unknown };
      const message = typeof error.message === 'string' ? error.message : `HTTP ${response.status}`;
      return { ok: false, status: response.status, message };
    } catch {
      return { ok: false, status: 0, message: FIRST_PAINT_TEXT.unreachable };
    }
  };
}

/**
 * The session's pending prompts as cards (text only), before the first paint's composer. A card's
 * buttons answer only once it has been in view for the console's arming delay (Arming, 700 ms),
 * counted from when the first paint showed it; the console's card goes on counting from there
 * (handoff.ts), and does not show a prompt answered here.
 */
export function paintPrompts(
  root: HTMLElement,
  list: readonly EarlyPrompt[],
  decide: EarlyDecider,
): HTMLElement | null {
  if (!list.length) return null;
  const doc = root.ownerDocument;
  const section = doc.createElement('section');
  section.className = 'fp-prompts';
  section.setAttribute('aria-label', FIRST_PAINT_TEXT.waitingForAnswer);
  for (const prompt of list) section.append(promptCard(doc, prompt, decide));
  root.insertBefore(section, root.querySelector('.fp-composer'));
  return section;
}

function promptCard(doc: Document, prompt: EarlyPrompt, decide: EarlyDecider): HTMLElement {
  const el = (tag: string, className: string, text?: string) => element(doc, tag, className, text);
  const card = el('article', 'fp-prompt');
  card.dataset['permissionId'] = prompt.id;
  const title = promptTitle(doc, prompt);
  card.setAttribute('aria-labelledby', title.id);
  card.append(title);
  if (prompt.description) card.append(el('p', 'fp-prompt-description', prompt.description));
  const subject = subjectOf(prompt);
  if (subject) card.append(el('pre', 'fp-prompt-subject', subject));
  const status = el('p', 'fp-prompt-status');
  status.setAttribute('aria-live', 'polite');
  if (prompt.is_question) {
    // Its choices are the console's to lay out: the question waits for it.
    status.textContent = FIRST_PAINT_TEXT.questionWaits;
    card.append(status);
    return card;
  }
  const buttons = el('div', 'fp-prompt-buttons');
  const allow = el('button', 'fp-allow', FIRST_PAINT_TEXT.allowOnce) as HTMLButtonElement;
  const deny = el('button', 'fp-deny', FIRST_PAINT_TEXT.deny) as HTMLButtonElement;
  buttons.append(allow, deny);
  card.append(buttons, status);
  const arming = watchArming(card, prompt.id, (armed) => {
    for (const button of [allow, deny]) button.setAttribute('aria-disabled', String(!armed));
    card.classList.toggle('fp-armed', armed);
  });
  const answer = answerer(prompt.id, decide, arming, { buttons, status });
  for (const [button, decision] of [
    [allow, 'allow'],
    [deny, 'deny'],
  ] as const) {
    button.type = 'button';
    button.addEventListener('click', () => void answer(decision));
  }
  return card;
}

function element(doc: Document, tag: string, className: string, text?: string): HTMLElement {
  const node = doc.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The card's heading: the question, or the tool asking with its name marked. */
function promptTitle(doc: Document, prompt: EarlyPrompt): HTMLElement {
  const title = element(doc, 'h3', 'fp-prompt-title');
  title.id = `fp-prompt-${prompt.id}`;
  if (prompt.is_question) title.textContent = FIRST_PAINT_TEXT.question;
  else {
    for (const part of FIRST_PAINT_TEXT.asks(prompt.tool_name)) {
      title.append(part.marked ? element(doc, 'span', 'fp-prompt-tool', part.text) : part.text);
    }
  }
  return title;
}

/** Sends a decision once armed and one at a time, and shows what came of it. */
function answerer(
  id: string,
  decide: EarlyDecider,
  arming: ReturnType<typeof watchArming>,
  { buttons, status }: { buttons: HTMLElement; status: HTMLElement },
): (decision: Decision['decision']) => Promise<void> {
  let busy = false;
  return async (decision) => {
    // Focusable while unarmed (aria-disabled), as the console's buttons: refused here. Checked
    // against the clock, not only the timer, which a busy main thread may run late.
    if (!arming.check(performance.now()) || busy) return;
    busy = true;
    notePromptAnswered(id);
    const outcome = await decide(id, { decision, scope: 'once' });
    busy = false;
    if (outcome.ok) {
      status.textContent =
        decision === 'allow' ? FIRST_PAINT_TEXT.allowed : FIRST_PAINT_TEXT.denied;
      buttons.remove();
    } else if (outcome.status === 409 || outcome.status === 404) {
      status.textContent = FIRST_PAINT_TEXT.answeredElsewhere;
      buttons.remove();
    } else {
      notePromptAnswered(id, false);
      status.textContent = FIRST_PAINT_TEXT.notAnswered(outcome.message);
    }
  };
}

/**
 * Arms the card after it has been in view (half of it at least, as the console's card) for the
 * arming delay, unbroken; tells the handoff since when it has been in view.
 */
function watchArming(card: HTMLElement, id: string, show: (armed: boolean) => void): Arming {
  const arming = new Arming();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let since: number | null = null;
  const tick = () => {
    clearTimeout(timer);
    const now = performance.now();
    show(arming.check(now));
    const remaining = arming.remaining(now);
    if (!arming.armed && remaining !== null) timer = setTimeout(tick, remaining + 5);
  };
  // `at`: when the browser found the card in view or out of it (the observer's entry, on the
  // clock of performance.now()), not when a busy main thread got round to saying so.
  const seen = (visible: boolean, at = performance.now()) => {
    // Taken away with the first paint: what it last saw stays for the console's card.
    if (!card.isConnected) return;
    const now = Math.min(at, performance.now());
    if (visible) {
      arming.shown(now);
      since ??= now;
    } else {
      arming.hidden();
      if (!arming.armed) since = null;
    }
    notePromptInView(id, since);
    tick();
  };
  show(false);
  // Once the card is in the page (painted in the same task).
  if (typeof IntersectionObserver === 'undefined') queueMicrotask(() => seen(true));
  else
    new IntersectionObserver(
      (entries) => {
        const last = entries[entries.length - 1];
        if (last) seen(last.isIntersecting, last.time);
      },
      { threshold: 0.5 },
    ).observe(card);
  return arming;
}
