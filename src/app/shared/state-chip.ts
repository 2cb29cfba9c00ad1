import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { SessionState } from '../../../contract/api';
import { stateLabel } from './state-label';

/** A session state as a small coloured label (the text carries the meaning, not the colour). */
@Component({
  selector: 'app-state-chip',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `<span class="chip" [class]="'chip state-' + state()">{{ label() }}</span>`,
  styles: `
    .chip {
      display: inline-block;
      padding: 0.05rem 0.55rem;
      border-radius: 1rem;
      font-size: 0.75rem;
      font-weight: 600;
      background: var(--mat-sys-surface-container-highest);
      color: var(--mat-sys-on-surface);
    }
    .state-working,
    .state-starting {
      background: var(--mat-sys-primary-container);
      color: var(--mat-sys-on-primary-container);
    }
    .state-waiting {
      background: var(--mat-sys-tertiary-container);
      color: var(--mat-sys-on-tertiary-container);
    }
    .state-idle {
      background: var(--mat-sys-secondary-container);
      color: var(--mat-sys-on-secondary-container);
    }
    .state-ended,
    .state-stopping {
      background: var(--mat-sys-surface-container-high);
      color: var(--mat-sys-on-surface-variant);
    }
  `,
})
export class StateChip {
  readonly state = input.required<SessionState>();
  protected readonly label = computed(() => stateLabel(this.state()));
}
