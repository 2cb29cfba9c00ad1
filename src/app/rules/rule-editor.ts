import {
  ChangeDetectionStrategy,
  Component,
  OnInit,
  computed,
  input,
  output,
  signal,
} from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { ReactiveFormsModule } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { MatSelectModule } from '@angular/material/select';
import { Rule } from '../../../contract/permissions';
import { RulesRefusal } from './rules-api';
import { RULE_KINDS, RuleKind, ruleProblems } from './rule-list';
import { formValueOf, ruleForm, ruleOf } from './rule-form';

/** The component's words, in the console's language. */
const TEXT = {
  kind: $localize`Kind`,
  giveTheRuleA: $localize`Give the rule a short unique id.`,
  action: $localize`Action`,
  deny: $localize`deny`,
  ask: $localize`ask`,
  allow: $localize`allow`,
  patternRegularExpression: $localize`Pattern (regular expression)`,
  testedAgainstEachSub: $localize`Tested against each sub-command, e.g. \\bgit\\s+push\\b`,
  flags: $localize`Flags`,
  pathsOneGlobPer: $localize`Paths (one glob per line)`,
  eGSshOr: $localize`e.g. ~/.ssh/** or **/*.pem`,
  reasonSentBackTo: $localize`Reason (sent back to the agent)`,
  sayWhyTheAgent: $localize`Say why: the agent reads it.`,
  theDaemonRefusedThese: (line: unknown) =>
    $localize`The daemon refused these rules at line ${line}:line: of the rules file`,
  cancel: $localize`Cancel`,
  saving: $localize`Saving…`,
  saveRule: $localize`Save rule`,
  id: $localize`Id`,
};

/** Adds or edits one rule; checks what it can, then the page asks the daemon to save. */
@Component({
  selector: 'app-rule-editor',
  imports: [
    ReactiveFormsModule,
    MatButtonModule,
    MatFormFieldModule,
    MatInputModule,
    MatSelectModule,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './rule-editor.html',
  styleUrl: './rule-editor.scss',
})
export class RuleEditor implements OnInit {
  protected readonly t = TEXT;
  /** The rule being edited, or null to add one of `kind`. */
  readonly rule = input<Rule | null>(null);
  readonly kind = input<RuleKind>('bash');
  readonly existing = input.required<readonly Rule[]>();
  readonly refusal = input<RulesRefusal | null>(null);
  readonly saving = input(false);
  readonly submitted = output<Rule>();
  readonly cancelled = output<void>();

  protected readonly form = ruleForm();
  protected readonly kinds = RULE_KINDS;
  protected readonly problems = signal<string[]>([]);
  private readonly kindValue = toSignal(this.form.controls.kind.valueChanges, {
    initialValue: this.form.controls.kind.value,
  });
  protected readonly isBash = computed(() => this.kindValue() === 'bash');
  protected readonly title = computed(() =>
    this.rule() ? $localize`Edit rule ${this.rule()!.id}` : $localize`Add a rule`,
  );

  ngOnInit(): void {
    this.form.setValue(formValueOf(this.rule(), this.kind()));
    this.form.controls.kind.valueChanges.subscribe((kind) => {
      if (kind !== 'bash' && this.form.controls.action.value === 'allow')
        this.form.controls.action.setValue('deny');
    });
  }

  protected submit(): void {
    this.form.markAllAsTouched();
    const candidate = ruleOf(this.form.getRawValue());
    const problems = ruleProblems(candidate, this.existing(), this.rule()?.id ?? null);
    this.problems.set(problems);
    if (problems.length > 0) return;
    this.submitted.emit(Rule.parse(candidate));
  }
}
