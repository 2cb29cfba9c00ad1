import { ChangeDetectionStrategy, Component, Injector, inject, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MAT_DIALOG_DATA, MatDialog, MatDialogModule } from '@angular/material/dialog';
import { MatRadioModule } from '@angular/material/radio';
import { firstValueFrom } from 'rxjs';
import { PermissionMode } from '../../../contract/api';
import { PERMISSION_MODES } from '../sessions/launch-form';

export interface ResumeData {
  cwd: string;
  model: string;
  /** The mode the session had (an imported conversation's record is read-only: it is offered read-only). */
  mode: PermissionMode;
  imported: boolean;
}

/** The component's words, in the console's language. */
const TEXT = {
  resumeThisConversation: $localize`Resume this conversation?`,
  folder: $localize`Folder`,
  model: $localize`Model`,
  theFolderAndModel: $localize`The folder and model come from the imported transcript file, not from Relais. Check them before the agent works there.`,
  permissionMode: $localize`Permission mode`,
  cancel: $localize`Cancel`,
  resumeSession: $localize`Resume session`,
  noFolderNamed: $localize`(none named)`,
};

/** What the person chose: the mode to resume in. */
export interface ResumeChoice {
  permission_mode: PermissionMode;
}

/**
 * Asked before a resume: the folder the agent will work in and the model come from the session (for
 * an imported one, from a transcript file anyone with access to the agent's folder could write),
 * so they are shown, and the mode is chosen here rather than taken on one click.
 */
@Component({
  selector: 'app-resume-dialog',
  imports: [MatDialogModule, MatButtonModule, MatRadioModule],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <h2 mat-dialog-title>{{ t.resumeThisConversation }}</h2>
    <mat-dialog-content>
      <dl>
        <dt>{{ t.folder }}</dt>
        <dd class="mono" id="resume-folder">{{ data.cwd || t.noFolderNamed }}</dd>
        <dt>{{ t.model }}</dt>
        <dd class="mono" id="resume-model">{{ data.model }}</dd>
      </dl>
      @if (data.imported) {
        <p class="note">
          {{ t.theFolderAndModel }}
        </p>
      }
      <fieldset>
        <legend>{{ t.permissionMode }}</legend>
        <mat-radio-group
          [attr.aria-label]="t.permissionMode"
          [value]="mode()"
          (change)="mode.set($event.value)"
        >
          @for (option of modes; track option.value) {
            <mat-radio-button [value]="option.value">
              <strong>{{ option.label }}</strong> — {{ option.explanation }}
            </mat-radio-button>
          }
        </mat-radio-group>
      </fieldset>
    </mat-dialog-content>
    <mat-dialog-actions align="end">
      <button mat-button type="button" [mat-dialog-close]="null" cdkFocusInitial>
        {{ t.cancel }}
      </button>
      <button mat-flat-button type="button" [mat-dialog-close]="choice()">
        {{ t.resumeSession }}
      </button>
    </mat-dialog-actions>
  `,
  styles: `
    dl {
      display: grid;
      grid-template-columns: max-content 1fr;
      gap: 4px 12px;
      margin: 0 0 12px;
    }
    dt {
      font-weight: 500;
    }
    dd {
      margin: 0;
      overflow-wrap: anywhere;
    }
    fieldset {
      border: 0;
      padding: 0;
      margin: 0;
    }
    legend {
      font-weight: 500;
      margin-bottom: 4px;
    }
    mat-radio-group {
      display: flex;
      flex-direction: column;
    }
    .note {
      color: var(--mat-sys-on-surface-variant);
    }
  `,
})
export class ResumeDialog {
  protected readonly t = TEXT;
  protected readonly data = inject<ResumeData>(MAT_DIALOG_DATA);
  protected readonly modes = PERMISSION_MODES;
  protected readonly mode = signal<PermissionMode>(
    this.data.imported ? 'read_only' : this.data.mode,
  );

  protected choice(): ResumeChoice {
    return { permission_mode: this.mode() };
  }
}

/**
 * Asks before a resume. The page loads this file on the first Resume only, so opening a
 * conversation does not carry the dialog, its overlay, the radios and the forms they need.
 */
export async function askResume(
  injector: Injector,
  data: ResumeData,
): Promise<ResumeChoice | null> {
  const dialog = injector
    .get(MatDialog)
    .open<ResumeDialog, ResumeData, ResumeChoice | null>(ResumeDialog, {
      data,
      autoFocus: 'first-tabbable',
      maxWidth: '560px',
    });
  return (await firstValueFrom(dialog.afterClosed())) ?? null;
}
