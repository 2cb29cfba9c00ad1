import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { firstValueFrom } from 'rxjs';
import type { ApiKey, ApiKeyCreated } from '../../../contract/keys';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { registerPageCommands } from '../palette/page-commands';
import { ConfirmDialog, ConfirmData } from '../shared/confirm-dialog';
import { LatestAsk } from '../shared/latest-ask';
import { WhenPipe } from '../shared/when.pipe';
import { AccessApi } from './access-api';
import { CreateKeyForm } from './create-key-form';
import { KeyStatus, keyStatus } from './scope-labels';

/** The component's words, in the console's language. */
const TEXT = {
  access: $localize`:page name:Access`,
  refresh: $localize`Refresh`,
  intro: $localize`Give each tool of this machine its own key. A key launches under its own name, reads and steers only the sessions it launched, and never answers its own agent's prompts unless you allow it: those wait for you in the Inbox. The key in the start URL stays yours and can do everything.`,
  copyTheKeyNow: (name: string) => $localize`Copy the key of ${name}:name: now`,
  shownThisOnce: $localize`It is shown this once: Relais keeps only a fingerprint of it.`,
  keyOf: (name: string) => $localize`Key of ${name}:name:`,
  copied: $localize`Copied`,
  copy: $localize`Copy`,
  done: $localize`Done`,
  useItAs: $localize`Use it as`,
  bearerHeader: $localize`Authorization: Bearer <key>`,
  keys: $localize`Keys`,
  keysNotLoaded: (message: string, code: string) =>
    $localize`The keys could not be loaded: ${message}:message: (${code}:code:)`,
  retry: $localize`Retry`,
  loading: $localize`Loading…`,
  revokeKey: (name: string) => $localize`Revoke ${name}:name:`,
  revoke: $localize`Revoke`,
  scopes: $localize`Scopes`,
  none: $localize`none`,
  launchesOn: $localize`Launches on`,
  key: $localize`:a caller key's prefix:Key`,
  expires: $localize`Expires`,
  never: $localize`never`,
  lastUsed: $localize`Last used`,
  usedFrom: (when: string | null, from: string) => $localize`${when}:when: from ${from}:address:`,
  usedFromUnknown: (when: string | null) => $localize`${when}:when: from an unknown address`,
  revoked: $localize`:a caller key's revocation time:Revoked`,
  noKeyYet: $localize`No caller key yet: every tool uses yours.`,
};

/** A caller key's state in words (the API's value stays the key, for styles and tests). */
const STATUS: Record<KeyStatus, string> = {
  active: $localize`:caller key state:active`,
  expired: $localize`:caller key state:expired`,
  revoked: $localize`:caller key state:revoked`,
};

/** Caller keys: one per tool, created here (the secret shown once), listed with their last use, revoked. */
@Component({
  selector: 'app-access-page',
  imports: [MatButtonModule, WhenPipe, CreateKeyForm],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './access-page.html',
  styleUrl: './access-page.scss',
})
export class AccessPage {
  protected readonly t = TEXT;
  private readonly api = inject(AccessApi);
  private readonly dialog = inject(MatDialog);
  private readonly reading = new LatestAsk();

  protected readonly keys = signal<ApiKey[] | null>(null);
  protected readonly error = signal<ApiFailure | null>(null);
  protected readonly actionError = signal<ApiFailure | null>(null);
  protected readonly announcement = signal('');
  /** The key just created: its secret stays on screen until the person says it is copied. */
  protected readonly fresh = signal<ApiKeyCreated | null>(null);
  protected readonly copied = signal(false);
  protected readonly rows = computed(() => {
    const now = Date.now();
    return (this.keys() ?? []).map((key) => ({ key, status: keyStatus(key, now) }));
  });

  constructor() {
    registerPageCommands(() => [
      {
        id: 'access-create',
        group: TEXT.access,
        label: $localize`Create a caller key`,
        keywords: 'api key token new',
        run: () => document.getElementById('key-name')?.focus(),
      },
    ]);
    void this.load();
  }

  protected statusLabel(status: KeyStatus): string {
    return STATUS[status];
  }

  protected async load(): Promise<void> {
    const current = this.reading.ask();
    this.error.set(null);
    try {
      const keys = await this.api.list();
      if (current()) this.keys.set(keys);
    } catch (error: unknown) {
      if (current()) this.error.set(toApiFailure(error));
    }
  }

  protected onCreated(created: ApiKeyCreated): void {
    this.fresh.set(created);
    this.copied.set(false);
    this.announcement.set(
      $localize`Key ${created.name}:name: created. Copy it now: it is shown this once.`,
    );
    void this.load();
    // The secret's panel takes the focus, so that a keyboard or a screen reader lands on it.
    setTimeout(() => document.getElementById('fresh-secret')?.focus());
  }

  protected async copy(): Promise<void> {
    const fresh = this.fresh();
    if (!fresh) return;
    try {
      await navigator.clipboard.writeText(fresh.secret);
      this.copied.set(true);
      this.announcement.set($localize`The key is copied.`);
    } catch {
      this.announcement.set(
        $localize`The browser refused to copy: select the key and copy it by hand.`,
      );
    }
  }

  protected dismiss(): void {
    this.fresh.set(null);
    this.announcement.set($localize`The key is no longer shown.`);
    document.getElementById('keys-title')?.focus();
  }

  protected async revoke(key: ApiKey): Promise<void> {
    const data: ConfirmData = {
      title: $localize`Revoke ${key.name}:name:?`,
      message: $localize`${key.name}:name: is refused from now on and its open streams end. Its sessions keep running; the owner can stop them.`,
      confirm: $localize`Revoke now`,
    };
    const confirmed = await firstValueFrom(
      this.dialog.open(ConfirmDialog, { data, autoFocus: 'first-tabbable' }).afterClosed(),
    );
    if (confirmed !== true) return;
    this.actionError.set(null);
    try {
      await this.api.revoke(key.id);
      this.announcement.set($localize`Key ${key.name}:name: revoked.`);
      await this.load();
    } catch (error: unknown) {
      this.actionError.set(toApiFailure(error));
    }
  }
}
