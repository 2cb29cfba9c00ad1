// Loaded first and run as soon as it arrives (async), while the shell's modules are still on their
// way and the page has nothing else to do. A page's first date format loads the browser's locale and
// time-zone data (60–120 ms in a fresh Chromium on the project's machine); every later one reuses it.
// Without this, that load fell inside the conversation's first render, once its events had arrived.
// In the page's language (the build sets <html lang>), as the console's formats are.
new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
  month: 'short',
  hour: 'numeric',
}).format(0);
