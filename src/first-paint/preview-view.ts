import { FIRST_PAINT_ID } from './handoff';
import type { PreviewLine } from './preview-lines';

const WHO: Record<PreviewLine['who'], string> = { you: 'You', agent: 'Agent', tool: '' };

/**
 * Puts the first paint on the page: the shell's bar and the conversation's last rows, laid out as
 * the console will show them (styles.scss, `#first-paint`), text only: nothing of an event is ever
 * read as markup. It is not interactive; the console takes its place once it has rendered.
 */
export function paintPreview(doc: Document, lines: readonly PreviewLine[]): HTMLElement {
  const el = (tag: string, className: string, text?: string) => {
    const node = doc.createElement(tag);
    node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const root = el('div', 'fp');
  root.id = FIRST_PAINT_ID;
  root.setAttribute('aria-busy', 'true');
  root.setAttribute('aria-label', 'The conversation, while the console loads');
  const top = el('div', 'fp-top');
  top.append(el('span', 'fp-brand', 'Relais'), el('span', 'fp-status', 'connecting…'));
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
  scroller.append(rows);
  root.append(top, el('div', 'fp-bar'), scroller);
  doc.body.append(root);
  scroller.scrollTop = scroller.scrollHeight;
  return root;
}
