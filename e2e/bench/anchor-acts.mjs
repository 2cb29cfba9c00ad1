/**
 * What a person does after a conversation opens, measured the same way in Relais and in the web UI
 * it is measured against (anchor.bench.mjs): the main thread's long tasks while opening, when the
 * page's composer took the first key typed from the start (conversation-open.mjs types them), and
 * how long the way up to the conversation's first message takes from the bottom.
 */

/** The first user message of a transcript written by seed-imported.mjs (its turns count from 0). */
export const HEAD = 'Turn 0: look at the tests';

/**
 * Set before any script of the page runs: every task of 50 ms or more (Long Tasks API), the first
 * key a composer took (one of `composers`, focused the frame it shows, as a person would click into
 * it), nothing else.
 */
export const WATCH_ACTS = (composers) => {
  window.__benchLongTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.__benchLongTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const focus = () => {
    if (window.__benchKeyMs !== undefined || !composers) return;
    const box = document.querySelector(composers);
    if (box && document.activeElement !== box) box.focus();
    requestAnimationFrame(focus);
  };
  requestAnimationFrame(focus);
  document.addEventListener(
    'input',
    (event) => {
      if (composers && event.target?.matches?.(composers) && event.target.value.includes('k'))
        window.__benchKeyMs ??= performance.now();
    },
    true,
  );
};

/** Blocking (what each long task passes 50 ms by), the longest and their count, before `untilMs`. */
export async function longTasksBefore(page, untilMs) {
  const tasks = await page.evaluate(() => window.__benchLongTasks);
  const opening = tasks.filter((task) => task.start < untilMs);
  return {
    blockingMs: opening.reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0),
    longestTaskMs: Math.max(0, ...opening.map((task) => task.duration)),
    longTasks: opening.length,
  };
}

/**
 * The other UI's way up, as its own page offers it: it reads earlier messages from its server when
 * its list is scrolled near the top, and once it holds more than it draws, a "Load earlier
 * messages" button draws a hundred more. The list is scrolled to its top (and the button pressed)
 * until the first message is on screen: the time from the bottom, or null past `limitMs`.
 */
export async function loadEarlierToHead(page, limitMs = 300_000) {
  const started = Date.now();
  const step = () =>
    page.evaluate((head) => {
      const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (texts.nextNode()) {
        if (!texts.currentNode.textContent.includes(head)) continue;
        const box = texts.currentNode.parentElement.getBoundingClientRect();
        if (box.bottom > 0 && box.top < innerHeight && box.height > 0) return 'there';
      }
      // What changes as it reads or draws: its messages drawn, its "Showing …" line, a read
      // under way, the list's height.
      window.__benchListState ??= () =>
        [
          document.querySelectorAll('.chat-message').length,
          document.body.textContent.match(/Showing [^•]*|Loading older/)?.[0],
          document.querySelector('.chat-message')?.parentElement?.scrollHeight,
        ].join(' ');
      const before = window.__benchListState();
      // The messages' list: the scrolling box around them (the page has others).
      let list = document.querySelector('.chat-message')?.parentElement;
      const scrolls = (box) =>
        box.scrollHeight > box.clientHeight + 1 &&
        /auto|scroll/.test(getComputedStyle(box).overflowY);
      while (list && !scrolls(list)) list = list.parentElement;
      if (list) {
        list.scrollTop = 0;
        // Already at the top after a read, setting it fires no event: the page's handler must run.
        list.dispatchEvent(new Event('scroll'));
      }
      const button = [...document.querySelectorAll('button')].find((b) =>
        b.textContent.includes('Load earlier messages'),
      );
      button?.click();
      return before;
    }, HEAD);
  while (Date.now() - started < limitMs) {
    const before = await step();
    if (before === 'there') return Date.now() - started;
    // Until it drew or read more (it draws at most its last hundred until it has read them all).
    await page
      .waitForFunction((b) => window.__benchListState() !== b, before, { timeout: 500 })
      .catch(() => {});
  }
  return null;
}
