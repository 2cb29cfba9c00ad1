import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { FormControl, FormGroup, ReactiveFormsModule } from '@angular/forms';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { MatSelectModule } from '@angular/material/select';
import {
  catchError,
  debounceTime,
  distinctUntilChanged,
  map,
  of,
  startWith,
  switchMap,
} from 'rxjs';
import { PermissionMode } from '../../../contract/api';
import { RuleCheckResult } from '../../../contract/permissions';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { TESTER_TOOLS, TesterTool, checkBody } from './check-input';
import { RulesApi } from './rules-api';
import { chipClasses } from '../shared/chip-tone';
import { decisionLabel, stepLabel } from '../shared/verdict-label';

type Verdict =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'result'; result: RuleCheckResult }
  | { kind: 'error'; failure: ApiFailure };

/** The component's words, in the console's language. */
const TEXT = {
  wouldThisBeAllowed: $localize`Would this be allowed?`,
  theDaemonAnswersWith: $localize`The daemon answers with the same decision its sessions use, as you type.`,
  tool: $localize`Tool`,
  command: $localize`Command`,
  filePath: $localize`File path`,
  gitPushForce: $localize`git push --force`,
  workingDirectory: $localize`Working directory`,
  permissionMode: $localize`Permission mode`,
  typeACommandOr: $localize`Type a command or a path to see the decision.`,
  checking: $localize`Checking…`,
  theCheckFailed: (message: unknown, code: unknown) =>
    $localize`The check failed: ${message}:message: (${code}:code:)`,
  step: $localize`step`,
  rule: $localize`rule`,
  whatTheAgentWould: $localize`What the agent would be told`,
};

/** "Would this be allowed?": asks the daemon's own decision as the person types. */
@Component({
  selector: 'app-rule-tester',
  imports: [ReactiveFormsModule, MatFormFieldModule, MatInputModule, MatSelectModule],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './rule-tester.html',
  styleUrl: './rule-tester.scss',
})
export class RuleTester {
  protected readonly t = TEXT;
  protected readonly decisionLabel = decisionLabel;
  protected readonly stepLabel = stepLabel;
  protected readonly chipClasses = chipClasses;
  private readonly api = inject(RulesApi);
  protected readonly tools = TESTER_TOOLS;
  protected readonly modes: readonly PermissionMode[] = ['write', 'read_only', 'dry_run'];

  protected readonly form = new FormGroup({
    tool: new FormControl<TesterTool>('Bash', { nonNullable: true }),
    text: new FormControl('', { nonNullable: true }),
    cwd: new FormControl('/tmp', { nonNullable: true }),
    mode: new FormControl<PermissionMode>('write', { nonNullable: true }),
  });

  protected readonly verdict = toSignal(
    this.form.valueChanges.pipe(
      startWith(this.form.getRawValue()),
      map(() => this.form.getRawValue()),
      debounceTime(250),
      map((v) => checkBody(v.tool, v.text, v.cwd, v.mode)),
      distinctUntilChanged((a, b) => JSON.stringify(a) === JSON.stringify(b)),
      switchMap((body) => {
        if (!body) return of<Verdict>({ kind: 'idle' });
        // Errors stay inside this inner stream so one failed check never stops the tester.
        return this.api.check(body).pipe(
          map((result): Verdict => ({ kind: 'result', result })),
          catchError((error: unknown) =>
            of<Verdict>({ kind: 'error', failure: toApiFailure(error) }),
          ),
          startWith<Verdict>({ kind: 'checking' }),
        );
      }),
    ),
    { initialValue: { kind: 'idle' } as Verdict },
  );
}
