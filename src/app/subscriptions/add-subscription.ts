import { ChangeDetectionStrategy, Component, inject, output, signal } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { FormControl, FormGroup, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { MatRadioModule } from '@angular/material/radio';
import type { AgentKind, Subscription } from '../../../contract/api';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { SubscriptionsApi } from './subscriptions-api';
import { AGENT_LABELS, loginCommand } from './subscription-view';

/** The component's words, in the console's language. */
const TEXT = {
  addASubscription: $localize`Add a subscription`,
  agent: $localize`Agent`,
  name: $localize`Name`,
  giveItAName: $localize`Give it a name (80 characters at most).`,
  configurationFolder: $localize`Configuration folder`,
  homeYouClaudeWork: $localize`/home/you/.claude-work`,
  anAbsolutePathWhere: $localize`An absolute path, where you logged in once.`,
  giveTheConfigurationFolder: $localize`Give the configuration folder.`,
  useAnAbsolutePath: $localize`Use an absolute path (starting with /).`,
  logInOnceIn: $localize`Log in once in that folder first:`,
  theSubscriptionWasNot: (message: unknown, code: unknown) =>
    $localize`The subscription was not added: ${message}:message: (${code}:code:)`,
  adding: $localize`Adding…`,
  addSubscription: $localize`Add subscription`,
};

/** Adds a subscription: the agent, a name, and the folder in which the person logged in once. */
@Component({
  selector: 'app-add-subscription',
  imports: [
    ReactiveFormsModule,
    MatButtonModule,
    MatFormFieldModule,
    MatInputModule,
    MatRadioModule,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './add-subscription.html',
  styleUrl: './add-subscription.scss',
})
export class AddSubscription {
  protected readonly t = TEXT;
  private readonly api = inject(SubscriptionsApi);
  /** A subscription was added (detection then runs on it). */
  readonly added = output<Subscription>();

  protected readonly agents = Object.entries(AGENT_LABELS) as [AgentKind, string][];
  protected readonly form = new FormGroup({
    agent: new FormControl<AgentKind>('claude', { nonNullable: true }),
    name: new FormControl('', {
      nonNullable: true,
      validators: [Validators.required, Validators.maxLength(80)],
    }),
    configDir: new FormControl('', {
      nonNullable: true,
      validators: [Validators.required, Validators.pattern(/^\//)],
    }),
  });
  private readonly value = toSignal(this.form.valueChanges, { initialValue: this.form.value });
  protected readonly saving = signal(false);
  protected readonly failure = signal<ApiFailure | null>(null);

  protected command(): string {
    const value = this.value();
    return loginCommand(value.agent ?? 'claude', value.configDir ?? '');
  }

  protected async add(): Promise<void> {
    this.form.markAllAsTouched();
    if (this.form.invalid) {
      document.querySelector<HTMLElement>('app-add-subscription .ng-invalid input')?.focus();
      return;
    }
    const { agent, name, configDir } = this.form.getRawValue();
    this.saving.set(true);
    this.failure.set(null);
    try {
      const created = await this.api.create({ agent, name, config_dir: configDir.trim() });
      this.form.reset({ agent, name: '', configDir: '' });
      this.added.emit(created);
    } catch (error: unknown) {
      this.failure.set(toApiFailure(error));
    } finally {
      this.saving.set(false);
    }
  }
}
