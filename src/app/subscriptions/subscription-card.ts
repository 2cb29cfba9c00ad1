import { WhenPipe } from '../shared/when.pipe';
import {
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  Injector,
  afterNextRender,
  computed,
  inject,
  input,
  output,
  signal,
  viewChild,
} from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { firstValueFrom } from 'rxjs';
import type { Subscription } from '../../../contract/api';
import { toApiFailure } from '../core/api-error';
import { ConfirmDialog, type ConfirmData } from '../shared/confirm-dialog';
import { chipClasses } from '../shared/chip-tone';
import { SubscriptionsApi } from './subscriptions-api';
import { AGENT_LABELS, accountFacts, sharedWith } from './subscription-view';

/** The component's words, in the console's language. */
const TEXT = {
  builtIn: $localize`built in`,
  suspended: $localize`suspended`,
  configurationFolder: $localize`Configuration folder`,
  sharesItsAccountWith: (names: unknown) =>
    $localize`Shares its account with ${names}:names:: their sessions draw on the same quotas.`,
  whatDetectionFound: $localize`What detection found`,
  notDetectedYetDetection: $localize`Not detected yet. Detection asks the agent who it is and which models it offers, without generating anything.`,
  detected: (detected_at: unknown) => $localize`Detected ${detected_at}:detected_at:`,
  detectionFailed: (detect_error: unknown) =>
    $localize`Detection failed: ${detect_error}:detect_error:`,
  accountOf: (name: unknown) => $localize`Account of ${name}:name:`,
  noAccountDetailsWere: $localize`No account details were given.`,
  modelsOf: (name: unknown) => $localize`Models of ${name}:name:`,
  efforts: (supported_effort_levels: unknown) =>
    $localize`efforts: ${supported_effort_levels}:supported_effort_levels:`,
  noEffortLevels: $localize`no effort levels`,
  noModelWasListed: $localize`No model was listed.`,
  newNameFor: (name: unknown) => $localize`New name for ${name}:name:`,
  enterSavesEscapeCancels: $localize`Enter saves, Escape cancels.`,
  saveName: $localize`Save name`,
  cancel: $localize`Cancel`,
  runDetectionFor: (name: unknown) => $localize`Run detection for ${name}:name:`,
  detecting: $localize`Detecting…`,
  runDetection: $localize`Run detection`,
  builtInItCannot: $localize`Built in: it cannot be renamed or deleted.`,
  rename: (name: unknown) => $localize`Rename ${name}:name:`,
  rename2: $localize`Rename`,
  delete: (name: unknown) => $localize`Delete ${name}:name:`,
  delete2: $localize`Delete…`,
};

/** One subscription: what detection found, and Run detection, Rename, Delete. */
@Component({
  selector: 'app-subscription-card',
  imports: [WhenPipe, MatButtonModule, MatFormFieldModule, MatInputModule],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './subscription-card.html',
  styleUrl: './subscription-card.scss',
})
export class SubscriptionCard {
  protected readonly t = TEXT;
  private readonly api = inject(SubscriptionsApi);
  private readonly dialog = inject(MatDialog);
  private readonly injector = inject(Injector);
  private readonly renameInput = viewChild<ElementRef<HTMLInputElement>>('renameInput');
  private readonly renameButton = viewChild('renameButton', {
    read: ElementRef<HTMLButtonElement>,
  });

  readonly subscription = input.required<Subscription>();
  readonly all = input.required<Subscription[]>();
  readonly changed = output<Subscription>();
  readonly removed = output<Subscription>();

  protected readonly chipClasses = chipClasses;
  protected readonly agentLabel = computed(() => AGENT_LABELS[this.subscription().agent]);
  protected readonly facts = computed(() => accountFacts(this.subscription().account));
  protected readonly shares = computed(() => sharedWith(this.subscription(), this.all()));
  protected readonly busy = signal<'detect' | 'rename' | 'delete' | null>(null);
  protected readonly renaming = signal(false);
  protected readonly status = signal('');
  protected readonly failure = signal<string | null>(null);

  /** Reads the account and the models again (the agent's initialize: no generation, no tokens). */
  async detect(): Promise<void> {
    await this.act('detect', async () => {
      const detected = await this.api.detect(this.subscription().id);
      this.changed.emit(detected);
      return detected.detect_error
        ? $localize`Detection failed for ${detected.name}.`
        : $localize`Detection done for ${detected.name}:name:: ${detected.models.length}:count: models.`;
    });
  }

  protected startRename(): void {
    this.renaming.set(true);
    afterNextRender(() => this.renameInput()?.nativeElement.select(), { injector: this.injector });
  }

  protected cancelRename(): void {
    this.renaming.set(false);
    this.focusRenameButton();
  }

  protected async rename(name: string): Promise<void> {
    const done = await this.act('rename', async () => {
      const renamed = await this.api.patch(this.subscription().id, { name });
      this.changed.emit(renamed);
      return $localize`Renamed to ${renamed.name}.`;
    });
    if (!done) return;
    this.renaming.set(false);
    this.focusRenameButton();
  }

  protected async remove(): Promise<void> {
    const subscription = this.subscription();
    const data: ConfirmData = {
      title: $localize`Delete the subscription ${subscription.name}?`,
      message: $localize`Relais forgets it: no session can be launched on it any more. Its configuration folder (${subscription.config_dir}:folder:) and the login in it stay on disk, and its past conversations and figures are kept.`,
      confirm: $localize`Delete subscription`,
    };
    const confirmed = await firstValueFrom(
      this.dialog.open(ConfirmDialog, { data, autoFocus: 'first-tabbable' }).afterClosed(),
    );
    if (confirmed !== true) return;
    await this.act('delete', async () => {
      await this.api.remove(subscription.id);
      this.removed.emit(subscription);
      return $localize`Deleted ${subscription.name}.`;
    });
  }

  private focusRenameButton(): void {
    afterNextRender(() => this.renameButton()?.nativeElement.focus(), { injector: this.injector });
  }

  private async act(
    what: 'detect' | 'rename' | 'delete',
    run: () => Promise<string>,
  ): Promise<boolean> {
    // One action of a card at a time (the palette's Detect does not go through its disabled button).
    if (this.busy()) return false;
    this.busy.set(what);
    this.failure.set(null);
    this.status.set('');
    try {
      this.status.set(await run());
      return true;
    } catch (error: unknown) {
      const failure = toApiFailure(error);
      this.failure.set(`${failure.message} (${failure.code})`);
      return false;
    } finally {
      this.busy.set(null);
    }
  }
}
