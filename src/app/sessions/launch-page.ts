import { MatCheckboxModule } from '@angular/material/checkbox';
import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  computed,
  inject,
  signal,
} from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { ReactiveFormsModule } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { MatRadioModule } from '@angular/material/radio';
import { MatSelectModule } from '@angular/material/select';
import { Navigator } from '../core/routing/navigator';
import { PageLink } from '../core/routing/page-link';
import { Effort, Subscription } from '../../../contract/api';
import { AdmissionAnswer, AdmissionFigures } from '../../../contract/usage';
import { ApiError } from '../core/api-client';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { AdmissionPanel } from '../quotas/admission-panel';
import { QuotasApi } from '../quotas/quotas-api';
import { LiveStore } from '../core/live-store';
import { Now } from '../shared/now';
import { WhenPipe } from '../shared/when.pipe';
import { LIFETIMES, PERMISSION_MODES, launchBody, launchForm } from './launch-form';
import { recallLaunch, rememberLaunch } from './launch-memory';
import { McpServersEditor } from './mcp-servers-editor';
import { McpDraft, draftProblem, mcpServersOf } from './mcp-draft';
import { SessionsApi } from './sessions-api';
import { SubscriptionsApi } from '../subscriptions/subscriptions-api';

/** The component's words, in the console's language. */
const TEXT = {
  launchASession: $localize`Launch a session`,
  subscriptionsCouldNotBe: (message: unknown) =>
    $localize`Subscriptions could not be loaded: ${message}:message:`,
  retry: $localize`Retry`,
  loadingSubscriptions: $localize`Loading subscriptions…`,
  noSubscriptionIsConfigured: $localize`No subscription is configured yet.`,
  subscription: $localize`Subscription`,
  agent: (agent: unknown) => $localize`Agent: ${agent}:agent:`,
  chooseASubscription: $localize`Choose a subscription.`,
  model: $localize`Model`,
  noModelsDetectedYet: $localize`No models detected yet: use “Detect models”.`,
  chooseAModel: $localize`Choose a model.`,
  detecting: $localize`Detecting…`,
  detectModels: $localize`Detect models`,
  detectionFailed: (message: unknown) => $localize`Detection failed: ${message}:message:`,
  workingDirectory: $localize`Working directory`,
  homeYouProject: $localize`/home/you/project`,
  anAbsolutePathOn: $localize`An absolute path on this machine; the agent works in it.`,
  giveTheWorkingDirectory: $localize`Give the working directory.`,
  useAnAbsolutePath: $localize`Use an absolute path (starting with /).`,
  effort: $localize`Effort`,
  modelDefault: $localize`Model default`,
  lifetime: $localize`Lifetime`,
  stoppedAtTheDeadline: $localize`Stopped at the deadline unless extended.`,
  permissionMode: $localize`Permission mode`,
  runConfinedCommandsWithout: $localize`Run confined commands without asking`,
  commandsRunConfinedBy: $localize`Commands run confined by the operating system; those no rule decides run without a prompt. Deny and ask rules (rm -rf, git push) still apply.`,
  firstPromptOptional: $localize`First prompt (optional)`,
  isSuspendedSinceAfter: (
    name: unknown,
    suspended_at: unknown,
    consecutive_failed_starts: unknown,
  ) =>
    $localize`${name}:name: is suspended since ${suspended_at}:suspended_at: after ${consecutive_failed_starts}:consecutive_failed_starts: failed starts; a launch now would be told to wait`,
  lastError: $localize`Last error:`,
  retryNamed: (name: unknown) => $localize`Retry ${name}:name:`,
  reopening: $localize`Reopening…`,
  tooManyLaunchesIn: $localize`Too many launches in a row from the console or on this subscription: the next launch is possible in`,
  tooManyLaunchesIn2: $localize`Too many launches in a row.`,
  tryAgainInS: (retryIn: unknown) => $localize`Try again in ${retryIn}:retryIn: s.`,
  youCanTryAgain: $localize`You can try again now.`,
  thisSubscriptionIsSuspended: (message: unknown) =>
    $localize`This subscription is suspended: ${message}:message:`,
  nextAttemptAllowedIn: (retryIn: unknown) =>
    $localize`Next attempt allowed in ${retryIn}:retryIn: s.`,
  cancel: $localize`Cancel`,
  launching: $localize`Launching…`,
  launch: $localize`Launch`,
};

/** The quota check shown before Launch is asked again this often (running sessions change it). */
const ADMISSION_REFRESH_MS = 15_000;

/** Launching a session by hand, validated before sending; refusals say why and how long to wait. */
@Component({
  selector: 'app-launch-page',
  imports: [
    ReactiveFormsModule,
    PageLink,
    MatButtonModule,
    MatCheckboxModule,
    MatFormFieldModule,
    MatInputModule,
    MatRadioModule,
    MatSelectModule,
    McpServersEditor,
    WhenPipe,
    AdmissionPanel,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './launch-page.html',
  styleUrl: './launch-page.scss',
})
export class LaunchPage {
  protected readonly t = TEXT;
  private readonly sessionsApi = inject(SessionsApi);
  private readonly subscriptionsApi = inject(SubscriptionsApi);
  private readonly live = inject(LiveStore);
  private readonly navigator = inject(Navigator);
  private readonly now = inject(Now);
  private readonly quotasApi = inject(QuotasApi);

  protected readonly form = launchForm();
  protected readonly modes = PERMISSION_MODES;
  protected readonly lifetimes = LIFETIMES;
  protected readonly subscriptions = signal<Subscription[] | null>(null);
  protected readonly loadError = signal<ApiFailure | null>(null);
  protected readonly detecting = signal(false);
  protected readonly detectError = signal<ApiFailure | null>(null);
  protected readonly mcpServers = signal<McpDraft[]>([]);
  protected readonly submitting = signal(false);
  protected readonly failure = signal<ApiFailure | null>(null);
  protected readonly reopening = signal(false);
  private readonly retryUntil = signal<number | null>(null);
  /** The brake holds the next launch: said before Launch, with the same wait a refusal gives. */
  protected readonly braked = signal(false);
  /** What admission would weigh for a launch here now, or the figures of the refusal just received. */
  protected readonly admission = signal<{ answer: AdmissionAnswer; refused: boolean } | null>(null);

  private readonly subscriptionId = toSignal(this.form.controls.subscription.valueChanges, {
    initialValue: '',
  });
  private readonly modelValue = toSignal(this.form.controls.model.valueChanges, {
    initialValue: '',
  });

  protected readonly subscription = computed(
    () => this.subscriptions()?.find((s) => s.id === this.subscriptionId()) ?? null,
  );
  protected readonly models = computed(() => this.subscription()?.models ?? []);
  protected readonly agent = computed(() => this.subscription()?.agent ?? null);
  protected readonly efforts = computed<Effort[]>(() => {
    const model = this.models().find((m) => m.value === this.modelValue());
    return (model?.supported_effort_levels ?? []).filter(
      (level): level is Effort => Effort.safeParse(level).success,
    );
  });
  protected readonly retryIn = computed(() => {
    const until = this.retryUntil();
    return until === null ? 0 : Math.max(0, Math.ceil((until - this.now.ms()) / 1000));
  });

  /** Where and how the last launch ran: offered again (subscription and model once listed). */
  private readonly recalled = recallLaunch();

  constructor() {
    void this.loadSubscriptions();
    const timer = setInterval(() => void this.checkAdmission(), ADMISSION_REFRESH_MS);
    inject(DestroyRef).onDestroy(() => clearInterval(timer));
    this.form.controls.subscription.valueChanges.subscribe((id) => {
      this.form.controls.model.setValue('');
      this.admission.set(null);
      if (id) void this.checkBrake(id);
      if (id) void this.checkAdmission();
      // A subscription never detected (a built-in demo on first start, one just added): its models
      // are found without asking, so the model list is never empty for want of a click.
      const chosen = this.subscription();
      if (chosen) this.offerModel(chosen);
      if (chosen && chosen.models.length === 0 && chosen.detected_at === null && !this.detecting())
        void this.detect();
    });
    this.form.controls.model.valueChanges.subscribe(() => this.form.controls.effort.setValue(''));
    if (this.recalled.cwd) this.form.controls.cwd.setValue(this.recalled.cwd);
    if (this.recalled.permissionMode)
      this.form.controls.permissionMode.setValue(this.recalled.permissionMode);
  }

  protected async loadSubscriptions(): Promise<void> {
    this.loadError.set(null);
    try {
      const list = await this.subscriptionsApi.list();
      this.subscriptions.set(list);
      const last = list.find((s) => s.id === this.recalled.subscription);
      if (!this.form.controls.subscription.value && (last ?? list[0]))
        this.form.controls.subscription.setValue((last ?? list[0])!.id);
      const chosen = this.subscription();
      if (chosen) this.offerModel(chosen);
    } catch (error: unknown) {
      this.loadError.set(toApiFailure(error));
    }
  }

  /** Reopens a suspended subscription (as Retry on the Diagnostics page does). */
  protected async reopen(id: string): Promise<void> {
    this.reopening.set(true);
    try {
      this.replaceSubscription(await this.subscriptionsApi.retry(id));
      if (id !== this.subscriptionId()) return;
      this.failure.set(null);
      this.retryUntil.set(null);
    } catch (error: unknown) {
      if (id === this.subscriptionId()) this.failure.set(toApiFailure(error));
    } finally {
      this.reopening.set(false);
    }
  }

  private async checkBrake(id: string): Promise<void> {
    try {
      const { wait_seconds: wait } = await this.subscriptionsApi.launchWait(id);
      if (id !== this.subscriptionId() || this.failure()) return;
      this.braked.set(wait > 0);
      this.retryUntil.set(wait > 0 ? Date.now() + wait * 1000 : null);
    } catch {
      // Unknown: Launch stays offered, and a refusal says the wait.
    }
  }

  private async checkAdmission(): Promise<void> {
    const id = this.subscriptionId();
    if (!id || this.admission()?.refused) return;
    try {
      const answer = await this.quotasApi.admission(id);
      if (id === this.subscriptionId() && !this.admission()?.refused)
        this.admission.set({ answer, refused: false });
    } catch {
      // Unknown: the launch itself still says whether the quota can take it.
    }
  }

  /** A `quota_exhausted` refusal carries the figures it was decided on: shown as they were. */
  private showRefusal(error: unknown, failure: ApiFailure): void {
    const body = error instanceof ApiError ? (error.body as { figures?: unknown }) : null;
    const figures = AdmissionFigures.safeParse(body?.figures);
    if (failure.code !== 'quota_exhausted' || !figures.success) return;
    this.admission.set({
      refused: true,
      answer: {
        subscription_id: this.subscriptionId(),
        admit: false,
        reason: 'would_pass_threshold',
        message: failure.message,
        figures: figures.data,
        retry_after_seconds: failure.retryAfterSeconds,
      },
    });
  }

  private async refreshSubscription(): Promise<void> {
    const id = this.subscriptionId();
    if (!id) return;
    try {
      this.replaceSubscription(await this.subscriptionsApi.get(id));
    } catch {
      // The refusal banner already says what matters.
    }
  }

  /** Fills an empty model: the one the last launch used on this subscription, else the first listed
   *  (the agent lists its default first), so a newcomer can launch without opening the list. */
  private offerModel(subscription: Subscription): void {
    if (this.form.controls.model.value || subscription.models.length === 0) return;
    const remembered =
      subscription.id === this.recalled.subscription
        ? subscription.models.find((m) => m.value === this.recalled.model)
        : undefined;
    this.form.controls.model.setValue((remembered ?? subscription.models[0]!).value);
  }

  private replaceSubscription(updated: Subscription): void {
    this.subscriptions.update((list) =>
      (list ?? []).map((s) => (s.id === updated.id ? updated : s)),
    );
  }

  protected async detect(): Promise<void> {
    const id = this.subscriptionId();
    if (!id) return;
    this.detecting.set(true);
    this.detectError.set(null);
    try {
      const updated = await this.subscriptionsApi.detect(id);
      this.subscriptions.update((list) =>
        (list ?? []).map((s) => (s.id === updated.id ? updated : s)),
      );
      // Another subscription chosen meanwhile: its own form says nothing of this one's detection.
      if (id !== this.subscriptionId()) return;
      this.offerModel(updated);
      if (updated.detect_error)
        this.detectError.set({
          status: 200,
          code: 'detect_failed',
          message: updated.detect_error,
          retryAfterSeconds: null,
        });
    } catch (error: unknown) {
      if (id === this.subscriptionId()) this.detectError.set(toApiFailure(error));
    } finally {
      this.detecting.set(false);
    }
  }

  protected async launch(): Promise<void> {
    if (this.form.invalid || this.mcpServers().some((d) => draftProblem(d) !== null)) {
      this.form.markAllAsTouched();
      return;
    }
    this.submitting.set(true);
    this.failure.set(null);
    this.braked.set(false);
    if (this.admission()?.refused) this.admission.set(null);
    try {
      const mcp = mcpServersOf(this.mcpServers());
      const session = await this.sessionsApi.launch({
        ...launchBody(this.form.getRawValue()),
        ...(mcp ? { mcp_servers: mcp } : {}),
      });
      this.live.upsertSession(session);
      const { subscription, model, cwd, permissionMode } = this.form.getRawValue();
      rememberLaunch({ subscription, model, cwd: cwd.trim(), permissionMode });
      void this.navigator.navigate(['/sessions', session.id]);
    } catch (error: unknown) {
      const failure = toApiFailure(error);
      this.failure.set(failure);
      this.showRefusal(error, failure);
      // A refusal changes the subscription's figures (a suspension's wait doubles): shown as they
      // are now, the same as on the Diagnostics page.
      if (failure.code === 'subscription_suspended') void this.refreshSubscription();
      this.retryUntil.set(
        failure.retryAfterSeconds ? Date.now() + failure.retryAfterSeconds * 1000 : null,
      );
    } finally {
      this.submitting.set(false);
    }
  }
}
