import { FormControl, FormGroup, Validators } from '@angular/forms';
import { Rule } from '../../../contract/permissions';
import { RuleKind } from './rule-list';

export type RuleAction = 'deny' | 'ask' | 'allow';

export function ruleForm() {
  return new FormGroup({
    kind: new FormControl<RuleKind>('bash', { nonNullable: true }),
    id: new FormControl('', {
      nonNullable: true,
      validators: [Validators.required, Validators.maxLength(100)],
    }),
    action: new FormControl<RuleAction>('deny', { nonNullable: true }),
    pattern: new FormControl('', { nonNullable: true }),
    flags: new FormControl('', { nonNullable: true, validators: [Validators.maxLength(4)] }),
    paths: new FormControl('', { nonNullable: true }),
    reason: new FormControl('', {
      nonNullable: true,
      validators: [Validators.required, Validators.maxLength(500)],
    }),
  });
}
export type RuleForm = ReturnType<typeof ruleForm>;
export type RuleFormValue = ReturnType<RuleForm['getRawValue']>;

/** The form's value for a rule (or a new rule of a kind). */
export function formValueOf(rule: Rule | null, kind: RuleKind): RuleFormValue {
  if (!rule) return { kind, id: '', action: 'deny', pattern: '', flags: '', paths: '', reason: '' };
  if (rule.kind === 'bash') {
    return {
      kind: 'bash',
      id: rule.id,
      action: rule.action,
      pattern: rule.pattern,
      flags: rule.flags ?? '',
      paths: '',
      reason: rule.reason,
    };
  }
  return {
    kind: rule.kind,
    id: rule.id,
    action: rule.action ?? 'deny',
    pattern: '',
    flags: '',
    paths: rule.paths.join('\n'),
    reason: rule.reason,
  };
}

/** The rule as the daemon expects it: only the fields of its kind, paths one per line. */
export function ruleOf(value: RuleFormValue): unknown {
  const common = { id: value.id.trim(), reason: value.reason.trim() };
  if (value.kind === 'bash') {
    return {
      ...common,
      kind: 'bash',
      pattern: value.pattern,
      action: value.action,
      ...(value.flags.trim() ? { flags: value.flags.trim() } : {}),
    };
  }
  const paths = value.paths
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  return { ...common, kind: value.kind, paths, action: value.action };
}
