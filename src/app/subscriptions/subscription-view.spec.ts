import type { Subscription } from '../../../contract/api';
import { accountFacts, loginCommand, sharedWith } from './subscription-view';

const base = (id: string, name: string, shares: string[] = []): Subscription =>
  ({ id, name, shares_account_with: shares }) as unknown as Subscription;

describe('subscription view', () => {
  it('names the subscriptions sharing an account, by name, an unknown one by id', () => {
    const all = [base('a', 'Work', ['b', 'gone']), base('b', 'Home', ['a'])];
    expect(sharedWith(all[0]!, all)).toBe('Home, gone');
    expect(sharedWith(base('c', 'Alone'), all)).toBeNull();
  });

  it('shows the scalar facts of an account with readable labels', () => {
    expect(
      accountFacts({ email: 'me@example.org', subscriptionType: 'max', nested: { x: 1 } }),
    ).toEqual([
      { label: 'Email', value: 'me@example.org' },
      { label: 'Plan', value: 'max' },
    ]);
    expect(accountFacts(null)).toEqual([]);
  });

  it('gives the login command of each agent', () => {
    expect(loginCommand('claude', '/home/me/.claude-work')).toBe(
      'CLAUDE_CONFIG_DIR=/home/me/.claude-work claude   # then /login',
    );
    expect(loginCommand('codex', ' ')).toBe('CODEX_HOME=<folder> codex login');
  });
});
