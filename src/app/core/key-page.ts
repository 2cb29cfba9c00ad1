import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { FormControl, FormGroup, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatCheckboxModule } from '@angular/material/checkbox';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { CLOSE, OPEN, markedParts } from '../shared/marked-text';
import { ApiKey } from './api-key';
import { LiveStore } from './live-store';
import { NEXT_PARAM, safeReturnUrl } from './return-url';
import { ActivePage } from './routing/active-page';
import { Navigator } from './routing/navigator';
import { HOME } from './routing/page-route';

/** The component's words, in the console's language. */
const TEXT = {
  connectToYourRelais: $localize`Connect to your Relais daemon`,
  theDaemonRefusedThis: $localize`The daemon refused this key (401). Paste the current one.`,
  thisConsoleNeedsThe: $localize`This console needs the daemon's API key.`,
  whereTheKeyIs: markedParts(
    $localize`Open the URL the daemon printed when it started (it carries the key), or paste the key found in the file ${OPEN}:start_code:$RELAIS_HOME/api-key${CLOSE}:close_code: (by default ${OPEN}:start_code_default:~/.relais/api-key${CLOSE}:close_code_default:).`,
  ),
  apiKey: $localize`API key`,
  pasteTheKey: $localize`Paste the key.`,
  rememberOnThisBrowser: $localize`Remember on this browser`,
  withoutItTheKey: $localize`Without it, the key is forgotten when this tab closes.`,
  connect: $localize`Connect`,
};

/** Shown without a key or after a 401: where the key lives, and a field to paste it. */
@Component({
  selector: 'app-key-page',
  imports: [
    ReactiveFormsModule,
    MatButtonModule,
    MatCheckboxModule,
    MatFormFieldModule,
    MatInputModule,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <main class="key-page" aria-labelledby="key-title">
      <h1 id="key-title">{{ t.connectToYourRelais }}</h1>
      @if (apiKey.rejected()) {
        <p class="error" role="alert">{{ t.theDaemonRefusedThis }}</p>
      } @else {
        <p>{{ t.thisConsoleNeedsThe }}</p>
      }
      <p>
        @for (part of t.whereTheKeyIs; track $index) {
          @if (part.marked) {
            <code>{{ part.text }}</code>
          } @else {
            <span>{{ part.text }}</span>
          }
        }
      </p>
      <form [formGroup]="form" (ngSubmit)="save()">
        <mat-form-field appearance="outline" class="wide">
          <mat-label>{{ t.apiKey }}</mat-label>
          <input
            matInput
            formControlName="key"
            type="password"
            autocomplete="off"
            spellcheck="false"
          />
          @if (form.controls.key.hasError('required') && form.controls.key.touched) {
            <mat-error>{{ t.pasteTheKey }}</mat-error>
          }
        </mat-form-field>
        <mat-checkbox formControlName="remember">{{ t.rememberOnThisBrowser }}</mat-checkbox>
        <p class="hint">{{ t.withoutItTheKey }}</p>
        <button mat-flat-button type="submit">{{ t.connect }}</button>
      </form>
    </main>
  `,
  styles: `
    .key-page {
      max-width: 40rem;
      margin: 3rem auto;
      padding: 0 1rem;
    }
    .wide {
      width: 100%;
    }
    .error {
      color: var(--mat-sys-error);
      font-weight: 500;
    }
    .hint {
      color: var(--mat-sys-on-surface-variant);
      font-size: 0.875rem;
      margin: 0 0 1rem;
    }
    code {
      font-family: ui-monospace, monospace;
    }
  `,
})
export class KeyPage {
  protected readonly t = TEXT;
  protected readonly apiKey = inject(ApiKey);
  private readonly live = inject(LiveStore);
  private readonly navigator = inject(Navigator);
  private readonly page = inject(ActivePage);

  protected readonly form = new FormGroup({
    key: new FormControl('', { nonNullable: true, validators: [Validators.required] }),
    remember: new FormControl(this.apiKey.isRemembered(), { nonNullable: true }),
  });

  protected save(): void {
    if (this.form.invalid) {
      this.form.markAllAsTouched();
      return;
    }
    const { key, remember } = this.form.getRawValue();
    this.apiKey.use(key, remember ? 'local' : 'session');
    this.live.stop();
    this.live.start();
    const next = safeReturnUrl(this.page.query()[NEXT_PARAM]);
    void this.navigator.navigateByUrl(next ?? HOME);
  }
}
