const WAIT_MS = 3000;
const STEP_MS = 50;

/**
 * Moves keyboard focus to the element with this id once it is on screen (a page loaded lazily
 * renders it a moment after the navigation ends), and scrolls it into view.
 */
export function revealWhenShown(id: string): void {
  const started = Date.now();
  const attempt = (): void => {
    const element = document.getElementById(id);
    if (element) {
      if (!element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
      element.focus({ preventScroll: true });
      element.scrollIntoView?.({ block: 'start' });
    } else if (Date.now() - started < WAIT_MS) {
      setTimeout(attempt, STEP_MS);
    }
  };
  attempt();
}
