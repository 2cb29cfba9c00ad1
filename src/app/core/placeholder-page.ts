import { ChangeDetectionStrategy, Component, input } from '@angular/core';

/** A page a later issue fills (Analytics, Rules, Storage, Diagnostics). */
@Component({
  selector: 'app-placeholder-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="page">
      <h1>{{ title() }}</h1>
      <p>This page is not built yet.</p>
    </section>
  `,
  styles: `.page { padding: 1.5rem; }`,
})
export class PlaceholderPage {
  readonly title = input('Coming soon');
}
