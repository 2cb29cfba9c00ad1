import { GateVerdict, refusalOf, refusalWords } from './refusal';

// The permission_auto events the daemon wrote for these cases (demo model, Claude Code 2.1.332).
const verdict = (fields: Partial<GateVerdict>): GateVerdict => ({
  decision: 'deny',
  step: null,
  rule: null,
  reason: null,
  decidedBy: 'rules',
  ...fields,
});

describe('refusal mapping', () => {
  it('names the rule that refused, with its reason', () => {
    const refusal = refusalOf(
      verdict({
        step: 'rule',
        rule: 'rm-recursive-or-forced',
        reason:
          'rm recursive or forced deletes without recovery; delete files one by one, by name (matched: rm -rf build)',
      }),
    );
    expect(refusal).toEqual({
      kind: 'rule',
      rule: 'rm-recursive-or-forced',
      reason:
        'rm recursive or forced deletes without recovery; delete files one by one, by name (matched: rm -rf build)',
    });
    expect(refusalWords(refusal!).detail).toMatch(/^rm recursive or forced deletes/);
  });

  it('says read-only and dry run for what they are', () => {
    const readOnly = refusalOf(
      verdict({
        step: 'mode',
        reason:
          'read-only session: Bash (shell commands) is off; only reading and searching tools and questions pass',
      }),
    )!;
    expect(readOnly.kind).toBe('read-only');
    expect(refusalWords(readOnly).detail).toBe(
      'Read-only session: Bash (shell commands) is off; only reading and searching tools and questions pass',
    );
    const dry = refusalOf(
      verdict({ step: 'mode', reason: 'dry run: would have run Bash: touch y.txt' }),
    )!;
    expect(dry).toEqual({ kind: 'dry-run', wouldHaveRun: 'Bash: touch y.txt' });
    expect(refusalWords(dry)).toEqual({
      status: 'not run: dry run',
      detail: 'Dry run: would have run Bash: touch y.txt',
    });
  });

  it('tells apart paths, an absent person and other gate refusals', () => {
    expect(refusalOf(verdict({ step: 'path', reason: 'outside the trusted folders' }))?.kind).toBe(
      'path',
    );
    expect(
      refusalOf(
        verdict({
          step: 'default',
          decidedBy: 'nobody_listening',
          reason: 'Nobody is listening for prompts.',
        }),
      ),
    ).toEqual({ kind: 'nobody', reason: 'Nobody is listening for prompts' });
    expect(
      refusalOf(verdict({ step: 'engine_error', reason: 'The permission engine failed' }))?.kind,
    ).toBe('gate');
    // A rule step without a rule id is not presented as a named rule.
    expect(refusalOf(verdict({ step: 'rule', rule: null, reason: 'x' }))?.kind).toBe('gate');
  });

  it('is nothing when the gate allowed or asked', () => {
    expect(refusalOf(null)).toBe(null);
    expect(refusalOf(verdict({ decision: 'allow', step: 'rule', rule: 'git-read' }))).toBe(null);
    expect(refusalOf(verdict({ decision: 'ask' }))).toBe(null);
  });
});
