import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { ToolStats } from '../../../contract/usage';
import { formatCount, formatDuration } from './analytics-format';

/** Calls, errors, refusals and durations per tool: already text, so no chart to mirror. */
@Component({
  selector: 'app-tool-table',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="card" aria-labelledby="tools-title">
      <h2 id="tools-title">Tools</h2>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Tools, as a table">
        <table>
          <caption class="visually-hidden">
            Tool calls per tool in this scope, most called first
          </caption>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Calls</th>
              <th scope="col">Turns</th>
              <th scope="col">Errors</th>
              <th scope="col">Denied</th>
              <th scope="col">Median duration</th>
              <th scope="col">P95 duration</th>
            </tr>
          </thead>
          <tbody>
            @for (row of rows(); track row.name) {
              <tr>
                <th scope="row" class="mono wraps">{{ row.name }}</th>
                @for (cell of row.cells; track $index) {
                  <td>{{ cell }}</td>
                }
              </tr>
            } @empty {
              <tr>
                <td colspan="7" class="none">No tool was called in this scope.</td>
              </tr>
            }
          </tbody>
        </table>
      </div>
    </section>
  `,
  styleUrl: './data-card.scss',
  styles: `
    .table-wrap {
      max-height: 360px;
    }
    th[scope='row'],
    thead th:first-child {
      text-align: left;
      font-weight: 400;
    }
    .none {
      text-align: center;
      color: var(--mat-sys-on-surface-variant);
    }
  `,
})
export class ToolTable {
  readonly tools = input.required<ToolStats[]>();
  protected readonly rows = computed(() =>
    this.tools().map((t) => ({
      name: t.tool_name,
      cells: [
        formatCount(t.calls),
        formatCount(t.turns),
        formatCount(t.errors),
        formatCount(t.denied),
        formatDuration(t.duration.median_ms),
        formatDuration(t.duration.p95_ms),
      ],
    })),
  );
}
