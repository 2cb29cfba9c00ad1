/**
 * Runs `work` after the next frame was painted, with what that frame's work took before the
 * paint (ms): the frame's callbacks run in the order they were asked for, so this one, asked for
 * after the change it follows, runs after the render of that change.
 */
export function afterPaint(work: (frameMs: number) => void): void {
  if (typeof requestAnimationFrame !== 'function') return void setTimeout(() => work(0), 0);
  requestAnimationFrame((frameStart) => {
    const frameMs = performance.now() - frameStart;
    setTimeout(() => work(frameMs), 0);
  });
}
