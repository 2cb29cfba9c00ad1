import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';
import { nextTask } from '../../core/routing/load-in-tasks';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** Link targets the console follows: web pages and mail only (no javascript:, data:, file:, relative). */
const SAFE_URL = /^(?:https?:|mailto:)/i;

/**
 * What marked may produce for agent text. Headings start at h3 (the page owns h1 and h2); no
 * images (a remote image would be fetched on sight, a way to carry data out), no raw HTML.
 */
const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'a',
  'ul',
  'ol',
  'li',
  'input',
  'blockquote',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];
const ALLOWED_ATTR = ['href', 'title', 'class', 'align', 'start', 'type', 'checked', 'disabled'];

const marked = new Marked({
  gfm: true,
  // Agents write single newlines as line breaks; keep them.
  breaks: true,
  async: false,
  renderer: {
    // Raw HTML from the agent is shown as the text it is, never interpreted.
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    heading({ tokens, depth }: Tokens.Heading) {
      const level = Math.min(6, depth + 2);
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
    image: ({ href, text }: Tokens.Image) =>
      `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`,
  },
});

let purifier: ReturnType<typeof DOMPurify> | null = null;

/** A private DOMPurify instance, so its hooks touch no other use of the library. */
function sanitizer(): ReturnType<typeof DOMPurify> | null {
  if (purifier) return purifier;
  if (typeof window === 'undefined') return null;
  const instance = DOMPurify(window);
  if (!instance.isSupported) return null;
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href');
      if (href !== null && !SAFE_URL.test(href)) node.removeAttribute('href');
      if (node.hasAttribute('href')) {
        // A new tab keeps the conversation (and its scroll position) where it was.
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    } else if (node.tagName === 'INPUT') {
      // Only GFM task-list boxes, and read-only ones.
      if (node.getAttribute('type') !== 'checkbox') {
        node.remove();
      } else {
        node.setAttribute('disabled', '');
        const task = (node.parentElement?.textContent ?? '').trim().slice(0, 200);
        node.setAttribute(
          'aria-label',
          `${node.hasAttribute('checked') ? $localize`Done` : $localize`To do`}: ${task}`,
        );
      }
    }
    // A code block or a table may scroll sideways: it takes focus, so keys can scroll it too.
    if (node.tagName === 'PRE' || node.tagName === 'TABLE') node.setAttribute('tabindex', '0');
    const className = node.getAttribute('class');
    if (className !== null && !(node.tagName === 'CODE' && /^language-[\w+#.-]+$/.test(className)))
      node.removeAttribute('class');
  });
  // Set once: a config given to each sanitize() call is parsed (and its lists copied) every time.
  instance.setConfig({
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
  });
  purifier = instance;
  return instance;
}

/**
 * Assistant Markdown (GitHub flavour: tables, nested and task lists, blockquotes, fenced code)
 * as HTML that DOMPurify has checked against a short allow-list. Fenced code comes out as
 * `<pre><code class="language-x">`, for the lazily loaded highlighter to colour.
 */
export function renderMarkdown(source: string): string {
  if (isPlainText(source)) return `<p>${escapeHtml(source)}</p>`;
  return parseAndSanitize(source);
}

/**
 * One line of words and punctuation that no Markdown rule (GFM's autolinks included) could read
 * as more than a paragraph: most of an agent's short remarks between tool calls. Such a text skips
 * the parser and the sanitiser, which were most of what rendering a row allocated. Marks that
 * start a block are allowed inside the line but not at its start; nothing that makes markup,
 * links, emphasis, code or entities is allowed anywhere.
 */
const PLAIN_LINE = /^(?![-+]|\d+[.)])[\p{L}\p{N}\p{M}\p{So}\p{Pd}\p{Pi}\p{Pf} ,.;:'"?!()%$=+…]+$/u;

export function isPlainText(source: string): boolean {
  return (
    source.length <= 2000 &&
    PLAIN_LINE.test(source) &&
    source === source.trim() &&
    !/www\./i.test(source)
  );
}

/**
 * HTML made only of these tags, none with an attribute: nothing in it for DOMPurify to remove or
 * for its hook to change (links, code blocks, tables and task boxes all fail this test). Most
 * replies (paragraphs, bold, italics, inline code) are this, and sanitising them parsed each into
 * a document of its own.
 */
const INERT_HTML = /^(?:[^<]|<\/?(?:p|strong|em|del|code|br)>)*$/;

/** Marked, then DOMPurify unless marked's HTML is inert: what every text that is not plain goes through. */
export function parseAndSanitize(source: string): string {
  const html = markdownHtml(source);
  return INERT_HTML.test(html) ? html.trim() : sanitizeHtml(html, source);
}

/** Marked's HTML for `source`, before any check. */
export function markdownHtml(source: string): string {
  return marked.parse(source.replace(/\r\n?/g, '\n')) as string;
}

/** `html` (marked's, for `source`) through DOMPurify and the console's hook. */
export function sanitizeHtml(html: string, source: string): string {
  const purify = sanitizer();
  // Fail closed: without a DOM to sanitise with, show the text, never unchecked HTML.
  if (!purify) return `<p>${escapeHtml(source)}</p>`;
  return purify.sanitize(html).trim();
}

/**
 * Every rule of marked and the sanitiser: a heading, emphasis, code, a link, strikethrough, both
 * lists, a task box, a quote, a table and a fenced block.
 */
const WARM_UP_SAMPLES = [
  '### a **b** _c_ `d` [e](https://e.test) ~~f~~ www.g.test',
  '- h\n  1. i\n- [x] j',
  '> k',
  '| l | m |\n|---|:-:|\n| n | o |',
  '```ts\np\n```',
];

// V8 compiles a regular expression on its first use, and marked's rules are many and long: the
// first rows a conversation renders paid for that in their task (marked was 9-10 ms of the 42-45
// ms of it, traced). The module is loaded ahead of the page (app.routes.ts); this runs its rules
// and sets the sanitiser up, while the page's other modules come: a sample a task (all in one
// took 31-46 ms with the CPU slowed twice, a long task of its own), then the sanitiser.
async function warmUp(): Promise<void> {
  const html: string[] = [];
  for (const sample of WARM_UP_SAMPLES) {
    await nextTask();
    html.push(markdownHtml(sample));
  }
  await nextTask();
  sanitizeHtml(html.join(''), WARM_UP_SAMPLES.join('\n\n'));
}
if (typeof window !== 'undefined') void warmUp();

/** Whether the rendered HTML has a fenced block worth loading the highlighter for. */
export function hasFencedCode(html: string): boolean {
  return html.includes('<code class="language-');
}
