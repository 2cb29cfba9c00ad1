// Loaded first and run as soon as it arrives (async), while the shell's modules are still on their
// way and the page has nothing else to do. A page's first date format loads the browser's locale and
// time-zone data (60–120 ms in a fresh Chromium on the project's machine); every later one reuses it.
// Without this, that load fell inside the conversation's first render, once its events had arrived.
new Intl.DateTimeFormat(undefined, { month: 'short', hour: 'numeric' }).format(0);
