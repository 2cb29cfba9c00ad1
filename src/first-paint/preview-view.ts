import { FIRST_PAINT_ID } from './handoff';
import { type EarlySender, earlyComposer } from './early-composer';
import { deliveryFor } from '../app/conversation/composer/queue-order';
import { sessionName, shortId } from '../app/sessions/session-name';
import { FIRST_PAINT_TEXT } from './first-paint-text';
import type { PreviewLine } from './preview-lines';

const WHO: Record<PreviewLine['who'], string> = {
  you: FIRST_PAINT_TEXT.you,
  agent: FIRST_PAINT_TEXT.agent,
  tool: '',
};

/** The conversation's bar, as the console heads the page: what the session is called, and its agent. */
export interface PreviewHeading {
  name: string;
  shortId: string;
  facts: string;
  /** A live session's conversation has a composer, one that is over or imported has none. */
  takesMessages: boolean;
}

/** The bar of a session as its early read answered it; null when that was no session. */
export function previewHeading(body: unknown): PreviewHeading | null {
  const session = (body !== null && typeof body === 'object' ? body : {}) as Record<
    string,
    unknown
  >;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const id = text(session['id']);
  if (!id) return null;
  const model = text(session['model']);
  return {
    name: sessionName({ id, title: text(session['title']) }),
    shortId: shortId(id),
    facts: [text(session['agent']), model && FIRST_PAINT_TEXT.model(model)]
      .filter(Boolean)
      .join(' · '),
    takesMessages:
      session['origin'] !== 'imported' &&
      deliveryFor(text(session['state']) ?? undefined, 0) !== 'closed',
  };
}

/**
 * Puts the first paint on the page: the shell's bar and the conversation's last rows, laid out as
 * the console will show them (styles.scss, `#first-paint`), text only: nothing of an event is ever
 * read as markup. A live session's has a composer that sends with `send` (early-composer.ts); the
 * console takes its place once it has rendered.
 */
export function paintPreview(
  doc: Document,
  lines: readonly PreviewLine[],
  heading: PreviewHeading | null = null,
  send: EarlySender | null = null,
): HTMLElement {
  const el = (tag: string, className: string, text?: string) => {
    const node = doc.createElement(tag);
    node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const root = el('div', 'fp');
  root.id = FIRST_PAINT_ID;
  const top = el('div', 'fp-top');
  top.append(
    el('span', 'fp-brand', 'Relais'),
    el('span', 'fp-status', FIRST_PAINT_TEXT.connecting),
  );
  const rows = el('div', 'fp-rows');
  for (const line of lines) {
    const row = el('div', `fp-row fp-${line.who}`);
    if (line.who === 'tool') row.textContent = line.text;
    else {
      const meta = el('div', 'fp-meta');
      meta.append(el('strong', '', WHO[line.who]));
      row.append(meta, el('div', 'fp-text', line.text));
    }
    rows.append(row);
  }
  const scroller = el('div', 'fp-scroller');
  scroller.setAttribute('aria-busy', 'true');
  scroller.setAttribute('aria-label', FIRST_PAINT_TEXT.region);
  scroller.setAttribute('role', 'region');
  scroller.append(rows);
  const bar = el('div', 'fp-bar');
  if (heading) {
    const title = el('span', 'fp-title', heading.name);
    title.append(el('span', 'fp-id', heading.shortId));
    bar.append(
      el('span', 'fp-back', FIRST_PAINT_TEXT.back),
      title,
      el('span', 'fp-facts', heading.facts),
    );
  }
  root.append(top, bar, scroller);
  if (heading?.takesMessages) root.append(earlyComposer(doc, send));
  doc.body.append(root);
  scroller.scrollTop = scroller.scrollHeight;
  return root;
}
