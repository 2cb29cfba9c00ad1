import {
  conversationIdOf,
  conversationReads,
  firstEventsUrl,
  peekEarlyRead,
  sessionUrl,
  startReads,
} from '../app/core/early-reads';
import { keyAtStart } from '../app/core/key-at-start';
import { nextTask } from '../app/core/routing/load-in-tasks';
import { applyThemeChoice, readThemeChoice } from '../app/core/theme-choice';
import type { SessionEvent } from '../../contract/api';
import {
  dismissFirstPaint,
  firstPaintDismissed,
  firstPaintDraft,
  holdShortcuts,
  publishTypingPause,
} from './handoff';
import { type EarlySender, earlySender } from './early-composer';
import { type EarlyPrompt, earlyDecider, paintPrompts, readEarlyPrompts } from './early-prompts';
import { previewLines } from './preview-lines';
import { paintPreview, previewHeading } from './preview-view';

/**
 * The first script of a conversation's page (scripts/first-paint.mjs builds it; the page's copy
 * of index.html names it, with the console's own entry in `data-main`). It starts the
 * conversation's first API reads, and when its last events arrive before the console could show
 * them, paints them as plain rows; only then does it start the console (its modules fetched,
 * compiled and run), so that none of that holds the paint back. The console takes the rows' place
 * once it has rendered its own (handoff.ts). A page it cannot help (no key, another page, a failed
 * read) is started at once, as if this script were not there.
 */

/** Rows painted: more than a tall window shows. */
const ROWS = 24;
/** The console starts after this even when the events have not arrived: a slow read waits alone. */
const HOLD_MS = 300;
/**
 * A first paint the console never took away (it failed to start) goes after this, unless it holds
 * what the person typed.
 */
const LEAVE_MS = 15_000;

const own = (document.currentScript as HTMLScriptElement | null)?.dataset;
const main = own?.['main'] ?? '';
/** public/date-format-warm-up.js: the date formats' data loaded in a worker, off the main thread. */
const warmUp = own?.['warmUp'] ?? '';
let started = false;

/** Only a file of this console's folder: the attributes are the build's, checked all the same. */
const consoleFile = (path: string) => /^\/(?:[a-z]{2}\/)?[\w.-]+\.js$/.test(path);

function startConsole(): void {
  if (started) return;
  started = true;
  if (consoleFile(main)) {
    const script = document.createElement('script');
    script.type = 'module';
    script.src = main; // First: the largest file, and the one that starts the console.
    document.head.append(script);
  }
  // Its module preloads and async scripts, kept inert until now (CONSOLE_START_ID in
  // scripts/first-paint.mjs).
  const later = document.getElementById('console-start');
  if (later instanceof HTMLTemplateElement) void appendInTasks([...later.content.childNodes]);
}

/** Preloads appended a task: each asks the browser for a file (28 at once took 5-66 ms traced). */
const PRELOADS_PER_TASK = 6;

async function appendInTasks(nodes: readonly Node[]): Promise<void> {
  for (let from = 0; from < nodes.length; from += PRELOADS_PER_TASK) {
    await nextTask();
    const part = nodes.slice(from, from + PRELOADS_PER_TASK);
    document.head.append(...part.map((node) => node.cloneNode(true)));
  }
}

function warmSessionStorage(): void {
  try {
    void sessionStorage.length;
  } catch {
    // Storage disabled by the browser's settings: the console keeps the key in memory.
  }
}

/**
 * The date formats' worker, started with the reads: its file is asked while the connections are
 * free and its work is done on another thread while the reads are on their way. Started with the
 * console, its file waited behind the console's (the browser asks for a worker's file itself, after
 * the page's requests): in traces at load 11 it ran at 588 ms, after the page's first format.
 */
function startDateFormatWarmUp(): void {
  if (!consoleFile(warmUp) || typeof Worker !== 'function') return;
  try {
    new Worker(warmUp, { name: document.documentElement.lang || 'en' });
  } catch {
    // No worker (a browser's policy): the page's first format loads the data itself.
  }
}

function eventsOf(body: unknown): SessionEvent[] {
  const items = (body as { items?: unknown } | undefined)?.items;
  return Array.isArray(items)
    ? items.filter((item): item is SessionEvent => !!item && typeof item === 'object')
    : [];
}

/** What a live session's first paint acts with: its sends, its prompts and their answers. */
interface Acting {
  send: EarlySender;
  prompts: Promise<EarlyPrompt[]>;
  key: string;
}

function firstPaint(
  events: Promise<unknown>,
  session: Promise<unknown> | null,
  acting: Acting,
): void {
  setTimeout(startConsole, HOLD_MS);
  void Promise.all([events, session]).then(([page, about]) => {
    const lines = previewLines(eventsOf(page), ROWS, (about as { agent?: unknown } | null)?.agent);
    if (!lines.length || firstPaintDismissed()) return startConsole();
    const heading = previewHeading(about);
    const root = paintPreview(document, lines, heading, acting.send);
    if (heading?.takesMessages)
      void acting.prompts.then((prompts) => {
        if (!firstPaintDismissed()) paintPrompts(root, prompts, earlyDecider(acting.key));
      });
    // The frame that shows the rows first, then the console.
    requestAnimationFrame(() => setTimeout(startConsole));
    setTimeout(() => {
      if (!firstPaintDraft()?.text) dismissFirstPaint();
    }, LEAVE_MS);
  });
}

const id = conversationIdOf(location.pathname);
// Read once, before the console moves it out of the address: the reads and the sends use this key.
const key = keyAtStart();
// Only the conversation's own reads: the shell's, not needed for this paint, would wait in line
// with them; the console starts those. Before anything else, so they leave as early as can be.
// On the connections the page and this script came by, open already: asked without credentials,
// they waited for new ones (5-30 ms traced at load 5).
if (id) startReads(conversationReads(id), key);
// With them, the session's pending prompts: shown with the rows (or just after), answerable there.
// Asked without credentials, it opens the connection the message sent from here takes, apart
// from the console's files (api-connections.ts).
const prompts = id && key ? readEarlyPrompts(id, key) : null;
// The tab's storage loaded now, while the reads are on their way: the console's start keeps the
// key there, and a storage's first use waits for the browser to load it (5–15 ms in a trace of
// the console's bootstrap, its longest task).
warmSessionStorage();
startDateFormatWarmUp();
applyThemeChoice(document.documentElement, readThemeChoice());
// From now until the console listens itself (a page shown from its address gets its load event
// long before the console has started).
holdShortcuts();
// The console's start waits between its steps while the person types in the composer (main.ts).
publishTypingPause();
const events = id ? peekEarlyRead(firstEventsUrl(id)) : null;
if (id && key && events && prompts)
  firstPaint(events, peekEarlyRead(sessionUrl(id)), { send: earlySender(id, key), prompts, key });
else startConsole();
