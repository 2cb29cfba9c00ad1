import { stateLabel } from './state-label';
import { decisionLabel, stepLabel } from './verdict-label';

describe('verdict and state labels', () => {
  it('put the engine’s decisions and steps in words', () => {
    expect(decisionLabel('key_created')).toBe('key created');
    expect(stepLabel('session_rule')).toBe('rule for this session');
    expect(stateLabel('waiting')).toBe('waiting');
  });

  it('show a value they do not know as it is, an object property’s name too', () => {
    expect(decisionLabel('quarantined')).toBe('quarantined');
    expect(stepLabel('toString')).toBe('toString');
    expect(stateLabel('constructor')).toBe('constructor');
  });
});
