import { decidedByLabel } from './decided-by-label';

describe('decidedByLabel', () => {
  it('names who the daemon means in words, and keeps a key or app name as written', () => {
    expect(decidedByLabel('console')).toBe('the console');
    expect(decidedByLabel('nobody_listening')).toBe('nobody listening');
    expect(decidedByLabel('ci-deploy')).toBe('ci-deploy');
  });

  it('takes a key named like an object property for a name', () => {
    expect(decidedByLabel('constructor')).toBe('constructor');
    expect(decidedByLabel('__proto__')).toBe('__proto__');
  });
});
