// A page's first date format loads the browser's locale and time-zone data: one task of 25–110 ms
// on the project's machine, whether it ran early (this script, as it was) or in the conversation's
// first render. That data is shared by the page's threads, so it is loaded here in a worker, off
// the page's main thread: the page's own first format then takes under a millisecond (measured in
// Chromium: 20–45 ms → 0.2–0.4 ms). The file runs twice: as the page's async script, where it
// only starts itself again as a worker, and in that worker, where it makes the formats. (A
// conversation's first paint starts the worker itself: scripts/first-paint.mjs.)
if (typeof document !== 'undefined') {
  const source = document.currentScript && document.currentScript.src;
  if (source && typeof Worker === 'function')
    // The page's language (the build sets <html lang>), as the console's formats are.
    new Worker(source, { name: document.documentElement.lang || 'en' });
} else {
  // As shared/locale-format.ts chooses: the browser's variant of the language, else its default.
  const language = self.name || 'en';
  const variant = (navigator.languages || []).find(
    (tag) => tag.toLowerCase().split('-')[0] === language,
  );
  const locale = variant || (language === 'fr' ? 'fr-FR' : 'en-US');
  // The console's time formats (shared/time-format.ts), and its numbers' and costs' (a
  // conversation's rows show both; their first use on the page took 7–17 ms in traces without).
  const clock = { hour: '2-digit', minute: '2-digit', second: '2-digit' };
  new Intl.DateTimeFormat(locale, clock).format(0);
  new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', ...clock }).format(0);
  new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(1234.5);
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(1.5);
  close();
}
