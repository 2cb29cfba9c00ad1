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
                <th scope="row" class="mono">{{ row.name }}</th>
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
  styles: `
    .card {
      border: 1px solid var(--mat-sys-outline-variant);
      border-radius: 12px;
      padding: 0.75rem 1rem 1rem;
      background: var(--mat-sys-surface-container-lowest);
    }
    .table-wrap {
      max-height: 360px;
      overflow: auto;
    }
    table {
      width: 100%;
      border-collapse: collapse;
      font-variant-numeric: tabular-nums;
    }
    th,
    td {
      text-align: right;
      padding: 0.3rem 0.5rem;
      border-bottom: 1px solid var(--mat-sys-outline-variant);
      white-space: nowrap;
    }
    th[scope='row'],
    thead th:first-child {
      text-align: left;
      font-weight: 400;
    }
    thead th {
      position: sticky;
      top: 0;
      background: var(--mat-sys-surface-container-lowest);
      font: var(--mat-sys-label-large);
      color: var(--mat-sys-on-surface-variant);
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
