import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { ToolStats } from '../../../contract/usage';
import { formatCount, formatDuration } from './analytics-format';

/** The component's words, in the console's language. */
const TEXT = {
  tools: $localize`Tools`,
  toolsAsATable: $localize`Tools, as a table`,
  toolCallsPerTool: $localize`Tool calls per tool in this scope, most called first`,
  tool: $localize`Tool`,
  calls: $localize`Calls`,
  turns: $localize`Turns`,
  errors: $localize`Errors`,
  denied: $localize`Denied`,
  medianDuration: $localize`Median duration`,
  p95Duration: $localize`P95 duration`,
  noToolWasCalled: $localize`No tool was called in this scope.`,
};

/** Calls, errors, refusals and durations per tool: already text, so no chart to mirror. */
@Component({
  selector: 'app-tool-table',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="card" aria-labelledby="tools-title">
      <h2 id="tools-title">{{ t.tools }}</h2>
      <div class="table-wrap" tabindex="0" role="region" [attr.aria-label]="t.toolsAsATable">
        <table>
          <caption class="visually-hidden">
            {{
              t.toolCallsPerTool
            }}
          </caption>
          <thead>
            <tr>
              <th scope="col">{{ t.tool }}</th>
              <th scope="col">{{ t.calls }}</th>
              <th scope="col">{{ t.turns }}</th>
              <th scope="col">{{ t.errors }}</th>
              <th scope="col">{{ t.denied }}</th>
              <th scope="col">{{ t.medianDuration }}</th>
              <th scope="col">{{ t.p95Duration }}</th>
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
                <td colspan="7" class="none">{{ t.noToolWasCalled }}</td>
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
  protected readonly t = TEXT;
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
