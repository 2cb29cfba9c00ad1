import { Rule } from '../../../contract/permissions';
import { groupRules, moveWithinKind, removeRule, ruleProblems, upsertRule } from './rule-list';

const bash = (id: string): Rule => ({
  id,
  kind: 'bash',
  pattern: id,
  action: 'deny',
  reason: 'because',
});
const path = (id: string, kind: 'zero_access' | 'read_only' | 'no_delete' = 'read_only'): Rule => ({
  id,
  kind,
  paths: ['/x'],
  reason: 'because',
});

describe('rule list', () => {
  const rules = [bash('a'), path('p1'), bash('b'), path('z', 'zero_access'), bash('c')];

  it('groups by kind in a fixed order, keeping file order and empty groups', () => {
    const groups = groupRules(rules);
    expect(groups.map((g) => g.kind)).toEqual(['bash', 'zero_access', 'read_only', 'no_delete']);
    expect(groups[0]!.rules.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(groups[1]!.rules.map((r) => r.id)).toEqual(['z']);
    expect(groups[3]!.rules).toEqual([]);
  });

  it('reorders within a kind and leaves the other kinds in their slots', () => {
    const moved = moveWithinKind(rules, 'bash', 2, 0);
    expect(moved.map((r) => r.id)).toEqual(['c', 'p1', 'a', 'z', 'b']);
    expect(moveWithinKind(rules, 'bash', 0, 1).map((r) => r.id)).toEqual([
      'b',
      'p1',
      'a',
      'z',
      'c',
    ]);
  });

  it('ignores moves out of range', () => {
    expect(moveWithinKind(rules, 'bash', 0, 3).map((r) => r.id)).toEqual([
      'a',
      'p1',
      'b',
      'z',
      'c',
    ]);
    expect(moveWithinKind(rules, 'no_delete', 0, 0)).toEqual(rules);
  });

  it('adds, replaces (even with a new id) and removes', () => {
    expect(upsertRule(rules, null, bash('d')).at(-1)!.id).toBe('d');
    expect(upsertRule(rules, 'b', bash('b2')).map((r) => r.id)).toEqual([
      'a',
      'p1',
      'b2',
      'z',
      'c',
    ]);
    expect(removeRule(rules, 'p1').map((r) => r.id)).toEqual(['a', 'b', 'z', 'c']);
  });

  it('reports missing fields and duplicate ids before asking the daemon', () => {
    expect(
      ruleProblems(
        { id: 'x', kind: 'bash', pattern: 'y', action: 'deny', reason: '' },
        rules,
        null,
      )[0],
    ).toMatch(/^reason/);
    expect(ruleProblems(bash('a'), rules, null)).toEqual([
      'id: another rule already has the id "a"',
    ]);
    expect(ruleProblems(bash('a'), rules, 'a')).toEqual([]);
  });
});
