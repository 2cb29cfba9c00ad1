import { ChangeDetectionStrategy, Component, input, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { NgxEchartsDirective } from 'ngx-echarts';
import { ChartModel } from './chart-model';
import { activeLocale } from '../core/locale-choice';

let nextId = 0;

/** The component's words, in the console's language. */
const TEXT = {
  showAsTable: $localize`Show as table`,
  asATable: (heading: unknown) => $localize`${heading}:heading:, as a table`,
  noTurnInThis: $localize`No turn in this scope.`,
};

/**
 * A chart with its text alternative: "Show as table" renders the very same data as a table.
 * `data-rendered` turns true once ECharts drew its first frame (the benchmark waits for it).
 */
@Component({
  selector: 'app-chart-card',
  imports: [NgxEchartsDirective, MatButtonModule],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="card" [attr.aria-labelledby]="id + '-title'">
      <header class="card-head">
        <h2 [id]="id + '-title'">{{ heading() }}</h2>
        <ng-content select="[card-actions]" />
        <button
          mat-button
          type="button"
          class="table-toggle"
          [attr.aria-pressed]="asTable()"
          (click)="asTable.set(!asTable())"
        >
          {{ t.showAsTable }}
        </button>
      </header>
      @if (asTable()) {
        <div
          class="table-wrap"
          tabindex="0"
          role="region"
          [attr.aria-label]="t.asATable(heading())"
        >
          <table>
            <caption class="visually-hidden">
              {{
                model().description
              }}
            </caption>
            <thead>
              <tr>
                @for (column of model().table.columns; track $index) {
                  <th scope="col">{{ column }}</th>
                }
              </tr>
            </thead>
            <tbody>
              @for (row of model().table.rows; track $index) {
                <tr>
                  @for (cell of row; track $index) {
                    @if ($first) {
                      <th scope="row" class="wraps">{{ cell }}</th>
                    } @else {
                      <td>{{ cell }}</td>
                    }
                  }
                </tr>
              } @empty {
                <tr>
                  <td [attr.colspan]="model().table.columns.length" class="none">
                    {{ t.noTurnInThis }}
                  </td>
                </tr>
              }
            </tbody>
          </table>
        </div>
      } @else {
        <div
          class="chart"
          echarts
          [options]="model().option"
          [initOpts]="initOpts"
          role="img"
          [attr.aria-label]="model().description"
          [attr.data-rendered]="rendered()"
          (chartRendered)="rendered.set(true)"
        ></div>
      }
    </section>
  `,
  styleUrl: './data-card.scss',
  styles: `
    :host {
      display: block;
      min-width: 0;
    }
    .card {
      height: 100%;
      box-sizing: border-box;
    }
    .card-head {
      display: flex;
      align-items: center;
      gap: 0.5rem;
      flex-wrap: wrap;
      margin-bottom: 0.5rem;
    }
    h2 {
      margin: 0;
      flex: 1 1 auto;
    }
    .table-toggle[aria-pressed='true'] {
      background: var(--mat-sys-secondary-container);
      color: var(--mat-sys-on-secondary-container);
    }
    .chart {
      height: 260px;
      width: 100%;
    }
    .table-wrap {
      max-height: 260px;
    }
    .none {
      text-align: center;
      color: var(--mat-sys-on-surface-variant);
    }
    th[scope='row'],
    thead th:first-child {
      text-align: left;
      font-weight: 400;
    }
  `,
})
export class ChartCard {
  protected readonly t = TEXT;
  /** ECharts' own month and day names (the time axis) in the console's language. */
  protected readonly initOpts = { locale: activeLocale() === 'fr' ? 'FR' : 'EN' };
  readonly heading = input.required<string>();
  readonly model = input.required<ChartModel>();
  protected readonly id = `chart-${nextId++}`;
  protected readonly asTable = signal(false);
  protected readonly rendered = signal(false);
}
