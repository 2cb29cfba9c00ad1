/**
 * Whether an answer is to the last question asked: a read answered after a newer one was asked
 * (another filter, a Refresh clicked twice) or after a change made here is not shown.
 */
export class LatestAsk {
  private asked = 0;

  /** A new question; the function it returns says whether that one is still the last asked. */
  ask(): () => boolean {
    const mine = ++this.asked;
    return () => mine === this.asked;
  }

  /** Something newer than every question on its way happened (a change made on the page). */
  supersede(): void {
    this.asked++;
  }
}
