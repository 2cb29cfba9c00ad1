import { Rule } from '../../../contract/permissions';

export type RuleKind = Rule['kind'];

export interface KindInfo {
  kind: RuleKind;
  label: string;
  explanation: string;
}

export const RULE_KINDS: readonly KindInfo[] = [
  {
    kind: 'bash',
    label: $localize`Commands`,
    explanation: $localize`Regular expressions tested against each sub-command a Bash call would run.`,
  },
  {
    kind: 'zero_access',
    label: $localize`Zero access`,
    explanation: $localize`Paths no tool may read or change.`,
  },
  {
    kind: 'read_only',
    label: $localize`Read only`,
    explanation: $localize`Paths that may be read but not changed (redirections, sed -i, tee, rm and mv count as changes).`,
  },
  {
    kind: 'no_delete',
    label: $localize`No delete`,
    explanation: $localize`Paths that may be changed but not removed or moved away.`,
  },
];

export interface RuleGroup extends KindInfo {
  rules: Rule[];
}

/** Every kind, in a fixed order, with its rules in file order (empty groups included). */
export function groupRules(rules: readonly Rule[]): RuleGroup[] {
  return RULE_KINDS.map((info) => ({
    ...info,
    rules: rules.filter((rule) => rule.kind === info.kind),
  }));
}

/**
 * Moves a rule within its kind: the rules of that kind trade places among the slots they hold
 * in the file, so rules of other kinds keep their positions. Out-of-range moves change nothing.
 */
export function moveWithinKind(
  rules: readonly Rule[],
  kind: RuleKind,
  from: number,
  to: number,
): Rule[] {
  const slots: number[] = [];
  rules.forEach((rule, index) => {
    if (rule.kind === kind) slots.push(index);
  });
  if (from === to || from < 0 || to < 0 || from >= slots.length || to >= slots.length)
    return [...rules];
  const members = slots.map((slot) => rules[slot]!);
  const [moved] = members.splice(from, 1);
  members.splice(to, 0, moved!);
  const result = [...rules];
  slots.forEach((slot, i) => (result[slot] = members[i]!));
  return result;
}

/** Replaces the rule with `id` (an edit may change the id), or appends when `id` is null. */
export function upsertRule(rules: readonly Rule[], id: string | null, rule: Rule): Rule[] {
  if (id === null) return [...rules, rule];
  return rules.map((existing) => (existing.id === id ? rule : existing));
}

export function removeRule(rules: readonly Rule[], id: string): Rule[] {
  return rules.filter((rule) => rule.id !== id);
}

/** What a rule does, in words, for its row. */
export function actionLabel(rule: Rule): string {
  if (rule.kind === 'bash') return rule.action;
  return rule.action ?? 'deny';
}

/** Problems the console can see before asking the daemon (which has the last word). */
export function ruleProblems(
  rule: unknown,
  others: readonly Rule[],
  editingId: string | null,
): string[] {
  const parsed = Rule.safeParse(rule);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'rule'}: ${issue.message}`);
  const id =
    typeof rule === 'object' && rule !== null && 'id' in rule ? (rule as { id: unknown }).id : null;
  if (typeof id === 'string' && others.some((other) => other.id === id && other.id !== editingId)) {
    problems.push(`id: another rule already has the id "${id}"`);
  }
  return problems;
}
