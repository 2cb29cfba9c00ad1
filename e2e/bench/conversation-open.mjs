/**
 * One measured open of a conversation in a fresh browser context: when the last message shows,
 * when the composer is on screen and when it first takes a keystroke, what crossed the network (Chrome DevTools Protocol),
 * then a scroll from the bottom to the first event with the DOM and the heap sampled on the way,
 * and the same way taken with the Home key.
 */

/**
 * Set before the app runs: marks the first frame where the tail marker is in the conversation
 * (the console's own view), the first frame where it is in the first paint (src/first-paint),
 * the first frame where a composer takes input (the console's, or the first paint's, whose text
 * the console's takes over: the benchmark checks the keys got there), and the moment the page
 * handled the first key typed into it (the input event itself, not when the benchmark next asks
 * the page). As a person would click into the composer the moment it shows, the composer is
 * focused in that frame (and again should the page move the focus before a key lands).
 */
const WATCH_OPEN = ({ tail, composer, prompt }) => {
  // Every task of 50 ms or more on the main thread from the start (Long Tasks API).
  window.__benchLongTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.__benchLongTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  // A prompt's card, the first paint's or the console's: on screen, then its buttons armed.
  const promptCard = '#first-paint .fp-prompt, app-permission-card .card';
  const armedCard = '#first-paint .fp-prompt.fp-armed, app-permission-card .card.armed';
  const check = () => {
    if (prompt) {
      if (document.querySelector(promptCard)) window.__benchPromptMs ??= performance.now();
      if (document.querySelector(armedCard)) window.__benchAnswerableMs ??= performance.now();
    }
    // The console's composer, or the first paint's while it is there (it hands its text over).
    const box =
      document.querySelector('#composer-text:not(:disabled)') ??
      document.getElementById('first-paint-composer');
    if (box) {
      window.__benchComposerMs ??= performance.now();
      if (window.__benchKeyMs === undefined && document.activeElement !== box) box.focus();
    }
    if (window.__benchFirstPaintMs === undefined) {
      const painted = document.getElementById('first-paint');
      if (painted?.textContent?.includes(tail)) window.__benchFirstPaintMs = performance.now();
    }
    if (window.__benchTailMs === undefined) {
      const scroller = document.querySelector('.scroller');
      if (scroller?.textContent?.includes(tail)) window.__benchTailMs = performance.now();
    }
    const typed = !composer || window.__benchKeyMs !== undefined;
    const armed = !prompt || window.__benchAnswerableMs !== undefined;
    if (window.__benchTailMs === undefined || !typed || !armed) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
  document.addEventListener(
    'input',
    (event) => {
      const composers = ['composer-text', 'first-paint-composer'];
      if (composers.includes(event.target?.id) && event.target.value.includes('k'))
        window.__benchKeyMs ??= performance.now();
    },
    true,
  );
};

/**
 * The trace's categories: tasks, what ran in them, and the CPU profile's samples (which slow the
 * page by half again on this machine: BENCH_TRACE_PROFILE=0 leaves them out).
 */
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  ...(process.env.BENCH_TRACE_PROFILE === '0' ? [] : ['disabled-by-default-v8.cpu_profiler']),
  'v8.execute',
  'toplevel',
  'blink.user_timing',
];

/**
 * With `trace` (a file path), the open is traced (CDP Tracing) from navigation to 2 s after the
 * console's last message, for e2e/bench/long-tasks.mjs; with `openOnly`, the figures stop there
 * (no scroll to the first event, no Home).
 */
export async function measureOpen(
  browser,
  { url, tail, composer = true, prompt = false, trace = null, openOnly = false },
) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  page.on('pageerror', (error) => process.stderr.write(`page error: ${error.message}\n`));
  await page.addInitScript(WATCH_OPEN, { tail, composer, prompt });
  const cdp = await context.newCDPSession(page);
  const network = await watchNetwork(cdp);
  // A steady stand-in for a loaded machine: every task of the page takes this many times longer.
  const slowdown = Number(process.env.BENCH_CPU_SLOWDOWN ?? 1);
  if (slowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });

  if (trace) await browser.startTracing(page, { path: trace, categories: TRACE_CATEGORIES });
  await page.goto(url, { waitUntil: 'commit' });
  const keystrokeMs = composer ? await firstKeystroke(cdp) : null;
  const message = composer ? await firstMessage(cdp, network) : null;
  await until(cdp, 'window.__benchTailMs !== undefined');
  const tailMs = await page.evaluate(() => window.__benchTailMs);
  const firstPaintMs = await page.evaluate(() => window.__benchFirstPaintMs ?? null);
  const composerMs = composer ? await page.evaluate(() => window.__benchComposerMs ?? null) : null;
  if (prompt) await until(cdp, 'window.__benchAnswerableMs !== undefined');
  const promptMs = prompt ? await page.evaluate(() => window.__benchPromptMs) : null;
  const answerableMs = prompt ? await page.evaluate(() => window.__benchAnswerableMs) : null;
  await page.waitForTimeout(2000);
  if (trace) await browser.stopTracing();
  if (composer) {
    const kept = await page.evaluate(() => document.querySelector('#composer-text')?.value ?? '');
    // A message refused (a seeded session has no agent) comes back to the box: the keys are kept.
    if (!kept.includes('k') && !message.accepted)
      throw new Error(`the keys typed did not reach the composer: "${kept}"`);
  }
  // The main thread while opening: from navigation to 2 s after the console's own last message.
  const tasks = await page.evaluate(() => window.__benchLongTasks);
  const opening = tasks.filter((task) => task.start < tailMs + 2000);
  const open = network.snapshot();
  const domBottom = await countElements(page);
  const heapBottomMB = await heapAfterGc(cdp);
  const opened = {
    firstPaintMs,
    tailMs,
    composerMs,
    keystrokeMs,
    messageMs: message?.ms ?? null,
    messageHeardMs: message?.heardMs ?? null,
    messageSentMs: message?.sentMs ?? null,
    messageQueuedMs: message?.queuedMs ?? null,
    messageServerMs: message?.serverMs ?? null,
    messagePosts: message?.posts ?? null,
    promptMs,
    answerableMs,
    blockingMs: opening.reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0),
    longTasksMs: opening.reduce((sum, task) => sum + task.duration, 0),
    longestTaskMs: Math.max(0, ...opening.map((task) => task.duration)),
    longTasks: opening.length,
    // Each as start+duration (ms), for the run's line: which part of the open they fell in.
    longTaskList: opening.map((t) => `${Math.round(t.start)}+${Math.round(t.duration)}`).join(' '),
    jsBytes: open.js.bytes,
    jsFiles: open.js.files,
    jsCompressed: open.js.files ? (100 * open.js.compressed) / open.js.files : null,
    apiBytesOpen: open.api.bytes,
    apiRequestsOpen: open.api.files,
    domBottom,
    heapBottomMB,
  };
  if (openOnly) {
    await context.close();
    return opened;
  }

  const scroll = await scrollToTop(page, cdp);
  const top = network.snapshot();
  const figures = {
    ...opened,
    topMs: scroll.ms,
    apiBytesTop: top.api.bytes - open.api.bytes,
    apiRequestsTop: top.api.files - open.api.files,
    domTop: await countElements(page),
    domMax: Math.max(domBottom, scroll.domMax),
    heapTopMB: await heapAfterGc(cdp),
    heapMaxMB: Math.max(heapBottomMB, scroll.heapMaxMB),
    homeMs: await homeFromBottom(page, tail),
  };
  // Back at the bottom (Home left the page at the start), the way up row by row.
  if (figures.homeMs) {
    await backToTail(page, tail);
    const walk = await scrollToTop(page, cdp, { walk: true });
    figures.walkMs = walk.ms;
    figures.walkSteps = walk.steps;
    figures.domMax = Math.max(figures.domMax, walk.domMax);
  }
  await context.close();
  return figures;
}

/**
 * Waits until `expression` is true in the page, asking through DevTools every 10 ms. Not with
 * Playwright's waitForFunction while the long tasks are counted: its first call evaluates
 * Playwright's own script in the page, a task of 50 ms or more of its own.
 */
async function until(cdp, expression) {
  for (;;) {
    const { result } = await cdp.send('Runtime.evaluate', { expression, returnByValue: true });
    if (result.value === true) return;
    await new Promise((done) => setTimeout(done, 10));
  }
}

/** When a response's headers started to arrive, in ms after its request's start. */
function headersAt(timing) {
  return timing.receiveHeadersStart >= 0 ? timing.receiveHeadersStart : timing.receiveHeadersEnd;
}

/** Bytes on the wire (headers included, as DevTools counts them) for scripts and for /api/. */
export async function watchNetwork(cdp) {
  const requests = new Map();
  const entry = (id) => {
    if (!requests.has(id))
      requests.set(id, { url: '', type: '', encoded: false, data: 0, total: 0 });
    return requests.get(id);
  };
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    const request = entry(requestId);
    request.url = response.url;
    request.type = type;
    const headers = Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    request.encoded = /\b(br|gzip|zstd|deflate)\b/.test(headers['content-encoding'] ?? '');
  });
  const posts = [];
  let navigationAt = null;
  cdp.on('Network.requestWillBeSent', ({ requestId, request, type, timestamp }) => {
    if (type === 'Document' && navigationAt === null) navigationAt = timestamp;
    if (request.method === 'POST' && /\/api\/sessions\/[^/]+\/messages$/.test(request.url))
      posts.push({ requestId, sentAt: timestamp });
  });
  cdp.on('Network.responseReceived', ({ requestId, response, timestamp }) => {
    const post = posts.find((p) => p.requestId === requestId);
    if (post)
      Object.assign(post, {
        answeredAt: timestamp,
        status: response.status,
        timing: response.timing,
      });
  });
  cdp.on('Network.dataReceived', ({ requestId, encodedDataLength }) => {
    entry(requestId).data += encodedDataLength;
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    entry(requestId).total = encodedDataLength;
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  return {
    /** The messages POSTed so far, with when they left and were answered (ms after navigation). */
    messages() {
      const ms = (at) => (at === undefined ? null : (at - navigationAt) * 1000);
      return posts.map((p) => ({
        // Of the request's time: waiting for a connection, then for the daemon's answer (ms).
        queuedMs: p.timing ? p.timing.sendStart : null,
        serverMs: p.timing ? p.timing.receiveHeadersStart - p.timing.sendEnd : null,
        sentMs: ms(p.sentAt),
        // When the answer's headers reached the network stack (its own clock, the same as the
        // events'): the daemon had the message by then. The page hears of it later, when its main
        // thread is free (`answeredMs`): 50-60 ms later, with the CPU slowed twice.
        daemonMs: p.timing ? ms(p.timing.requestTime + headersAt(p.timing) / 1000) : null,
        answeredMs: ms(p.answeredAt),
        status: p.status,
      }));
    },
    snapshot() {
      const sum = (filter) => {
        const picked = [...requests.values()].filter(filter);
        return {
          files: picked.length,
          bytes: picked.reduce((total, r) => total + Math.max(r.total, r.data), 0),
          compressed: picked.filter((r) => r.encoded).length,
        };
      };
      return {
        js: sum((r) => r.type === 'Script'),
        api: sum((r) => new URL(r.url || 'http://x/').pathname.startsWith('/api/')),
      };
    },
  };
}

/**
 * Types a key every few milliseconds from the start, through the browser's own input (DevTools),
 * as a person typing while the page opens would; resolves with the moment the page's composer took
 * the first one. Keys typed before the composer has the focus land on the page, where a plain
 * letter does nothing. (Until 2026-12 the benchmark waited for the composer through Playwright's
 * selector engine and focused it from outside, which put 150–250 ms of its own round trips into
 * the figure.) Null if no composer took one in `limitMs`.
 */
export async function firstKeystroke(cdp, limitMs = Infinity) {
  const key = { key: 'k', code: 'KeyK', windowsVirtualKeyCode: 75 };
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', text: 'k', ...key });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...key });
    const { result } = await cdp.send('Runtime.evaluate', {
      expression: 'window.__benchKeyMs ?? null',
      returnByValue: true,
    });
    if (typeof result.value === 'number') return result.value;
    await new Promise((done) => setTimeout(done, 5));
  }
  return null;
}

/**
 * Presses Enter every few milliseconds once the first key was taken, as a person sending what they
 * typed would (a page whose composer cannot send yet keeps the text, and a later Enter sends it);
 * resolves with when the daemon answered the first message POSTed (ms after navigation, by the
 * network stack's timing: it had the request by then), when the page heard that answer, when the
 * page asked for it (the keydown handled), whether it took it (a seeded copy of a session has no agent: 409), and
 * how many were POSTed in all (one, or something sent twice).
 */
async function firstMessage(cdp, network) {
  const key = { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 };
  while (!network.messages().length) {
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', text: '\r', ...key });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...key });
    await new Promise((done) => setTimeout(done, 10));
  }
  while (network.messages()[0].answeredMs === null)
    await new Promise((done) => setTimeout(done, 5));
  await new Promise((done) => setTimeout(done, 500));
  const [first, ...more] = network.messages();
  const accepted = first.status >= 200 && first.status < 300;
  return {
    ms: first.daemonMs ?? first.answeredMs,
    heardMs: first.answeredMs,
    sentMs: first.sentMs,
    queuedMs: first.queuedMs,
    serverMs: first.serverMs,
    accepted,
    posts: 1 + more.length,
  };
}

/**
 * The conversation's first step is on screen: its first event shown, or the page saying it is at
 * the start (a Codex rollout's first events, its metadata, make no step of their own).
 */
const AT_START = () => {
  const scroller = document.querySelector('.scroller');
  if (Number(scroller?.querySelector('[data-seq]')?.getAttribute('data-seq') ?? 0) <= 1)
    return true;
  return [...(scroller?.querySelectorAll('.edge') ?? [])].some((edge) =>
    edge.textContent.includes('Start of the conversation'),
  );
};

const countElements = (page) => page.evaluate(() => document.getElementsByTagName('*').length);

async function heapAfterGc(cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize / 1e6;
}

/** Back at the bottom (End), settled. */
export async function backToTail(page, tail) {
  const toTail = await page.$('.to-tail');
  if (toTail) await toTail.click();
  await page.waitForFunction(
    (t) => document.querySelector('.scroller')?.textContent?.includes(t),
    tail,
  );
  await page.waitForTimeout(500);
}

/** Back at the bottom (End), then Home: how long until the first event is on screen. */
async function homeFromBottom(page, tail) {
  await backToTail(page, tail);
  if (await page.evaluate(AT_START)) return 0; // The whole conversation fits in the window.
  // A build from before Home read the first chunk (it has no "Go to the start"): no figure.
  if (!(await page.$('.to-start'))) return null;
  await page.focus('.scroller');
  const started = Date.now();
  await page.keyboard.press('Home');
  await page.waitForFunction(AT_START);
  return Date.now() - started;
}

/**
 * Scrolls up as a fast reader would until the first event: the scrollbar's thumb dragged to the
 * top, again and again (a console whose scrollbar spans only what it loaded walks up a chunk at a
 * time; one that spans the whole conversation reads its start). With `walk`, the view is moved to
 * the top of the rows drawn instead, again and again: the way up chunk by chunk, in any console.
 * A step is one call into the page (at the start? else scroll) and one wait for the first row to
 * change and the rows in view to be drawn (not placeholders), which counts the page's elements at each frame it looks; the heap is sampled after each
 * step of the thumb's way only (until 2026-12-05 a step took six round trips to the page, some
 * 15-25 ms of the benchmark's own per step on this machine, more than the page's work on a walk).
 */
export async function scrollToTop(page, cdp, { walk = false } = {}) {
  let heapMaxMB = 0;
  await page.evaluate(`window.__benchDomMax = 0; window.__benchAtStart = ${AT_START}`);
  const started = Date.now();
  let steps = 0;
  for (; steps < 1000; steps++) {
    const before = await page.evaluate((walk) => {
      if (window.__benchAtStart()) return null;
      const scroller = document.querySelector('.scroller');
      const first = scroller.querySelector('[data-seq]');
      const seq = first?.getAttribute('data-seq') ?? '';
      if (walk && first)
        scroller.scrollTop +=
          first.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
      else scroller.scrollTop = 0;
      scroller.dispatchEvent(new Event('scroll'));
      return seq;
    }, walk);
    if (before === null) break;
    await page
      .waitForFunction((b) => {
        const count = document.getElementsByTagName('*').length;
        window.__benchDomMax = Math.max(window.__benchDomMax, count);
        const scroller = document.querySelector('.scroller');
        if (scroller.querySelector('[data-seq]')?.getAttribute('data-seq') === b) return false;
        // A console that draws rows near the view only (placeholders elsewhere) has drawn them.
        const view = scroller.getBoundingClientRect();
        return [...scroller.querySelectorAll('.placeholder')].every((row) => {
          const { top, bottom } = row.getBoundingClientRect();
          return bottom <= view.top || top >= view.bottom;
        });
      }, before)
      .catch(async (error) => {
        // What the page was showing when it stopped moving, for whoever reads the failure.
        const state = await page.evaluate(() => {
          const scroller = document.querySelector('.scroller');
          const edges = [...scroller.querySelectorAll('.edge')].map((edge) => edge.textContent);
          return { top: scroller.scrollTop, height: scroller.scrollHeight, edges };
        });
        throw new Error(`stuck at ${before}: ${JSON.stringify(state)}`, { cause: error });
      });
    if (walk) continue;
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    heapMaxMB = Math.max(heapMaxMB, usedSize / 1e6);
  }
  const ms = Date.now() - started;
  const domMax = await page.evaluate(() =>
    Math.max(window.__benchDomMax, document.getElementsByTagName('*').length),
  );
  return { ms, domMax, heapMaxMB, steps };
}
