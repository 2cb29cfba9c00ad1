import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { AdmissionAnswer } from '../../../contract/usage';
import { describeAdmission } from './admission-view';

/** The component's words, in the console's language. */
const TEXT = {
  whyTheLaunchWas: $localize`Why the launch was refused`,
  quotaCheck: $localize`Quota check`,
  binding: (name: unknown) => $localize`${name}:name: (binding)`,
  reading: (reading: unknown) => $localize`Reading ${reading}:reading:`,
};

/** What admission weighs for a launch on the chosen subscription: reading, rate, reservations. */
@Component({
  selector: 'app-admission-panel',
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './admission-panel.html',
  styleUrl: './admission-panel.scss',
})
export class AdmissionPanel {
  protected readonly t = TEXT;
  readonly answer = input.required<AdmissionAnswer>();
  /** True when these are the figures of a refusal just received. */
  readonly refused = input(false);
  protected readonly view = computed(() => describeAdmission(this.answer()));
}
