import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { AdmissionAnswer } from '../../../contract/usage';
import { describeAdmission } from './admission-view';

/** What admission weighs for a launch on the chosen subscription: reading, rate, reservations. */
@Component({
  selector: 'app-admission-panel',
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './admission-panel.html',
  styleUrl: './admission-panel.scss',
})
export class AdmissionPanel {
  readonly answer = input.required<AdmissionAnswer>();
  /** True when these are the figures of a refusal just received. */
  readonly refused = input(false);
  protected readonly view = computed(() => describeAdmission(this.answer()));
}
