/** How long a new prompt must have been in view before its buttons answer. */
export const ARM_DELAY_MS = 700;

/**
 * A prompt's buttons arm only once the prompt has been on screen for `delayMs` without a break,
 * so a double click (or a second Enter) meant for the previous prompt cannot answer this one.
 * Pure: the caller feeds it visibility changes and the clock.
 */
export class Arming {
  private visibleSince: number | null = null;
  private armedFlag = false;

  constructor(readonly delayMs = ARM_DELAY_MS) {}

  get armed(): boolean {
    return this.armedFlag;
  }

  /** The prompt came into view (or still is). */
  shown(now: number): void {
    this.visibleSince ??= now;
  }

  /** The prompt left the view before arming: the wait starts again when it is back. */
  hidden(): void {
    if (!this.armedFlag) this.visibleSince = null;
  }

  /** Milliseconds until armed (0 once armed; null while out of view). */
  remaining(now: number): number | null {
    if (this.armedFlag) return 0;
    if (this.visibleSince === null) return null;
    return Math.max(0, this.visibleSince + this.delayMs - now);
  }

  /**
   * Disarms again, counting from `now` when in view: a prompt that moves into the place of the
   * one just answered must not catch the second click of a double click.
   */
  rearm(now: number, visible: boolean): void {
    this.armedFlag = false;
    this.visibleSince = visible ? now : null;
  }

  /** Arms when the prompt has been in view long enough; armed stays armed. */
  check(now: number): boolean {
    if (this.remaining(now) === 0) this.armedFlag = true;
    return this.armedFlag;
  }
}
