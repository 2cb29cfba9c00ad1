import { ChangeDetectionStrategy, Component, computed, input, output } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { TurnRow } from '../../../contract/usage';
import { Timestamp } from '../shared/timestamp';
import { formatCost, formatDuration, formatTokens } from './analytics-format';

/** The turns of the scope, newest first, page by page: the rows an export of this scope holds. */
@Component({
  selector: 'app-turns-table',
  imports: [MatButtonModule, Timestamp],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="card" aria-labelledby="turns-title">
      <h2 id="turns-title">Turns</h2>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Turns, as a table">
        <table>
          <caption class="visually-hidden">
            Turns of this scope, newest first
          </caption>
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Session</th>
              <th scope="col">Subscription</th>
              <th scope="col">Model</th>
              <th scope="col">App</th>
              <th scope="col">Duration</th>
              <th scope="col">Tokens in / out</th>
              <th scope="col">Estimated cost</th>
              <th scope="col">Tools</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            @for (row of rows(); track row.id) {
              <tr [attr.data-turn-id]="row.id">
                <td><time [appTimestamp]="row.started"></time></td>
                <td class="mono">{{ row.session }}</td>
                <td class="wraps">{{ row.subscription }}</td>
                <td class="wraps">{{ row.model }}</td>
                <td class="wraps">{{ row.app }}</td>
                <td class="num">{{ row.duration }}</td>
                <td class="num">{{ row.tokens }}</td>
                <td class="num" [class.unknown]="row.costUnknown">{{ row.cost }}</td>
                <td class="num">{{ row.tools }}</td>
                <td [class.failed]="row.failed">{{ row.result }}</td>
              </tr>
            } @empty {
              <tr>
                <td colspan="10" class="none">No turn in this scope.</td>
              </tr>
            }
          </tbody>
        </table>
      </div>
      <p class="foot">
        <span role="status"
          >{{ rows().length }} turns shown{{ hasMore() ? '' : ', all of this scope' }}</span
        >
        @if (hasMore()) {
          <button
            mat-stroked-button
            type="button"
            [disabled]="loadingMore()"
            (click)="loadMore.emit()"
          >
            {{ loadingMore() ? 'Loading…' : 'Show more turns' }}
          </button>
        }
      </p>
    </section>
  `,
  styleUrl: './data-card.scss',
  styles: `
    .table-wrap {
      max-height: 420px;
    }
    table th,
    table td {
      text-align: left;
    }
    .num {
      text-align: right;
    }
    .unknown {
      font-style: italic;
    }
    .failed {
      color: var(--mat-sys-error);
      font-weight: 600;
    }
    .none {
      text-align: center;
      color: var(--mat-sys-on-surface-variant);
    }
    .foot {
      display: flex;
      align-items: center;
      gap: 1rem;
      margin: 0.75rem 0 0;
      color: var(--mat-sys-on-surface-variant);
    }
  `,
})
export class TurnsTable {
  readonly turns = input.required<TurnRow[]>();
  readonly hasMore = input(false);
  readonly loadingMore = input(false);
  readonly loadMore = output<void>();

  protected readonly rows = computed(() =>
    this.turns().map((t) => ({
      id: t.id,
      started: Date.parse(t.started_at),
      session: t.session_id.slice(-8),
      subscription: t.subscription_id,
      model: t.models || t.model,
      app: t.app,
      duration: formatDuration(t.duration_ms),
      tokens: `${formatTokens(t.input_tokens)} / ${formatTokens(t.output_tokens)}`,
      cost: formatCost(t.cost_estimate_usd),
      costUnknown: t.cost_estimate_usd === null,
      tools: t.tool_calls,
      failed: t.is_error,
      result: t.is_error ? `Error${t.error_kind ? ` (${t.error_kind})` : ''}` : 'OK',
    })),
  );
}
