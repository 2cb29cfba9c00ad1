import {
  ChangeDetectionStrategy,
  Component,
  computed,
  inject,
  output,
  signal,
  viewChild,
} from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import {
  FormControl,
  FormGroup,
  FormGroupDirective,
  ReactiveFormsModule,
  Validators,
} from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatCheckboxModule } from '@angular/material/checkbox';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import type { Subscription } from '../../../contract/api';
import type { ApiKeyCreated, KeyScope } from '../../../contract/keys';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { SubscriptionsApi } from '../subscriptions/subscriptions-api';
import { AccessApi } from './access-api';
import { EXPIRIES, SCOPE_TEXT, SCOPES } from './scope-labels';

const DAY_MS = 86_400_000;

/** The component's words, in the console's language. */
const TEXT = {
  createAKey: $localize`Create a key`,
  name: $localize`Name`,
  giveItAName: $localize`Give it a name (80 characters at most).`,
  expiresAfter: $localize`Expires after`,
  whatItMayDo: $localize`What it may do`,
  decideOwnNote: $localize`This key may answer the prompts of the sessions it launches itself: a tool holding it decides for its own agent, and no person sees those prompts first.`,
  subscriptionsItMayLaunchOn: $localize`Subscriptions it may launch on`,
  noSubscriptionYet: $localize`No subscription yet.`,
  notCreated: (message: string, code: string) =>
    $localize`The key was not created: ${message}:message: (${code}:code:)`,
  creating: $localize`Creating…`,
  createKey: $localize`Create key`,
};

/** Creates a caller key: its name, scopes, the subscriptions it may launch on, its lifetime. */
@Component({
  selector: 'app-create-key-form',
  imports: [
    ReactiveFormsModule,
    MatButtonModule,
    MatCheckboxModule,
    MatFormFieldModule,
    MatInputModule,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './create-key-form.html',
  styleUrl: './create-key-form.scss',
})
export class CreateKeyForm {
  protected readonly t = TEXT;
  private readonly api = inject(AccessApi);
  private readonly subscriptionsApi = inject(SubscriptionsApi);
  /** A key was created: its secret is in the answer, this once. */
  readonly created = output<ApiKeyCreated>();

  protected readonly scopes = SCOPES;
  protected readonly scopeText = SCOPE_TEXT;
  protected readonly expiries = EXPIRIES;
  protected readonly subscriptions = signal<Subscription[]>([]);
  /** Reset through the directive too, so that a created key leaves no "required" error behind. */
  private readonly formDirective = viewChild.required(FormGroupDirective);
  protected readonly form = new FormGroup({
    name: new FormControl('', {
      nonNullable: true,
      validators: [Validators.required, Validators.maxLength(80)],
    }),
    expiry: new FormControl('30', { nonNullable: true }),
  });
  protected readonly chosen = signal<ReadonlySet<KeyScope>>(new Set(['read']));
  protected readonly chosenSubscriptions = signal<ReadonlySet<string>>(new Set());
  private readonly name = toSignal(this.form.controls.name.valueChanges, { initialValue: '' });
  protected readonly saving = signal(false);
  protected readonly failure = signal<ApiFailure | null>(null);
  protected readonly problem = signal<string | null>(null);
  protected readonly launches = computed(() => this.chosen().has('launch'));
  protected readonly appHint = computed(() => {
    const name = this.name().trim();
    return name
      ? $localize`The sessions it launches show as "${name}:name:".`
      : $localize`Also the app name of the sessions it launches.`;
  });

  constructor() {
    void this.subscriptionsApi.list().then(
      (list) => this.subscriptions.set(list),
      (error: unknown) => this.failure.set(toApiFailure(error)),
    );
  }

  protected toggleScope(scope: KeyScope, on: boolean): void {
    const next = new Set(this.chosen());
    if (on) next.add(scope);
    else next.delete(scope);
    // Deciding for its own sessions means nothing without deciding at all.
    if (scope === 'decide_own' && on) next.add('decide');
    if (scope === 'decide' && !on) next.delete('decide_own');
    this.chosen.set(next);
  }

  protected toggleSubscription(id: string, on: boolean): void {
    const next = new Set(this.chosenSubscriptions());
    if (on) next.add(id);
    else next.delete(id);
    this.chosenSubscriptions.set(next);
  }

  protected async create(): Promise<void> {
    this.form.markAllAsTouched();
    this.problem.set(null);
    if (this.form.invalid) {
      document.getElementById('key-name')?.focus();
      return;
    }
    const scopes = SCOPES.filter((scope) => this.chosen().has(scope));
    const subscriptions = this.launches() ? [...this.chosenSubscriptions()] : [];
    if (this.launches() && subscriptions.length === 0) {
      this.problem.set($localize`Tick the subscriptions this key may launch on.`);
      return;
    }
    const days =
      this.form.controls.expiry.value === '' ? null : Number(this.form.controls.expiry.value);
    this.saving.set(true);
    this.failure.set(null);
    try {
      const created = await this.api.create({
        name: this.form.controls.name.value.trim(),
        scopes,
        subscriptions,
        expires_at: days === null ? null : new Date(Date.now() + days * DAY_MS).toISOString(),
      });
      this.formDirective().resetForm({ name: '', expiry: '30' });
      this.chosen.set(new Set(['read']));
      this.chosenSubscriptions.set(new Set());
      this.created.emit(created);
    } catch (error: unknown) {
      this.failure.set(toApiFailure(error));
    } finally {
      this.saving.set(false);
    }
  }
}
