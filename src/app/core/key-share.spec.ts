import { answerKeyAsks, askOtherTabs } from './key-share';

describe('the key shared between tabs', () => {
  it('is handed over by a tab that holds one', async () => {
    const stop = answerKeyAsks(() => 'key-of-the-first-tab');
    try {
      expect(await askOtherTabs(1000)).toBe('key-of-the-first-tab');
    } finally {
      stop();
    }
  });

  it('is not handed over by a tab without one, and the ask ends after its wait', async () => {
    const stop = answerKeyAsks(() => null);
    try {
      const started = Date.now();
      expect(await askOtherTabs(50)).toBeNull();
      expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    } finally {
      stop();
    }
  });
});
