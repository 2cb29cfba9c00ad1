import { afterPaint } from './after-paint';

describe('afterPaint', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('runs the work in a task after the frame, with what the frame took before it', async () => {
    let frame: FrameRequestCallback | undefined;
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => (frame = callback));
    const took = new Promise<number>((resolve) => afterPaint(resolve));
    let ran = false;
    void took.then(() => (ran = true));
    await new Promise((resolve) => setTimeout(resolve));
    expect(ran).toBe(false); // nothing before the frame
    frame!(performance.now() - 30); // the frame began 30 ms ago: its earlier callbacks took that
    expect(ran).toBe(false); // not in the frame itself
    expect(await took).toBeGreaterThanOrEqual(30);
  });
});
