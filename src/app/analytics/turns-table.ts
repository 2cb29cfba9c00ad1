import { ChangeDetectionStrategy, Component, computed, input, output } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { TurnRow } from '../../../contract/usage';
import { Timestamp } from '../shared/timestamp';
import { formatCost, formatDuration, formatTokens } from './analytics-format';

/** The component's words, in the console's language. */
const TEXT = {
  turns: $localize`Turns`,
  turnsAsATable: $localize`Turns, as a table`,
  turnsOfThisScope: $localize`Turns of this scope, newest first`,
  started: $localize`Started`,
  session: $localize`Session`,
  subscription: $localize`Subscription`,
  model: $localize`Model`,
  duration: $localize`Duration`,
  tokensInOut: $localize`Tokens in / out`,
  estimatedCost: $localize`Estimated cost`,
  tools: $localize`Tools`,
  result: $localize`Result`,
  noTurnInThis: $localize`No turn in this scope.`,
  turnsShown: (rows: unknown, hasMore: unknown) =>
    $localize`${rows}:rows: turns shown${hasMore}:hasMore:`,
  loading: $localize`Loading…`,
  showMoreTurns: $localize`Show more turns`,
  app: $localize`App`,
};

/** The turns of the scope, newest first, page by page: the rows an export of this scope holds. */
@Component({
  selector: 'app-turns-table',
  imports: [MatButtonModule, Timestamp],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="card" aria-labelledby="turns-title">
      <h2 id="turns-title">{{ t.turns }}</h2>
      <div class="table-wrap" tabindex="0" role="region" [attr.aria-label]="t.turnsAsATable">
        <table>
          <caption class="visually-hidden">
            {{
              t.turnsOfThisScope
            }}
          </caption>
          <thead>
            <tr>
              <th scope="col">{{ t.started }}</th>
              <th scope="col">{{ t.session }}</th>
              <th scope="col">{{ t.subscription }}</th>
              <th scope="col">{{ t.model }}</th>
              <th scope="col">{{ t.app }}</th>
              <th scope="col">{{ t.duration }}</th>
              <th scope="col">{{ t.tokensInOut }}</th>
              <th scope="col">{{ t.estimatedCost }}</th>
              <th scope="col">{{ t.tools }}</th>
              <th scope="col">{{ t.result }}</th>
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
                <td colspan="10" class="none">{{ t.noTurnInThis }}</td>
              </tr>
            }
          </tbody>
        </table>
      </div>
      <p class="foot">
        <span role="status">{{
          t.turnsShown(rows().length, hasMore() ? '' : ', all of this scope')
        }}</span>
        @if (hasMore()) {
          <button
            mat-stroked-button
            type="button"
            [disabled]="loadingMore()"
            (click)="loadMore.emit()"
          >
            {{ loadingMore() ? t.loading : t.showMoreTurns }}
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
  protected readonly t = TEXT;
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
