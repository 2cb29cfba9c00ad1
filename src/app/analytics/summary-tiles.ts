import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { AnalyticsSummary } from '../../../contract/usage';
import {
  formatCostEstimate,
  formatCount,
  formatDuration,
  formatRate,
  formatTokens,
  modelCallsNote,
  unknownCostNote,
} from './analytics-format';

interface Tile {
  label: string;
  value: string;
  detail: string;
  title?: string;
}

/** The scope in figures: one tile per measure, each with its label read before its value. */
@Component({
  selector: 'app-summary-tiles',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <dl class="tiles">
      @for (tile of tiles(); track tile.label) {
        <div class="tile" [attr.data-tile]="tile.label">
          <dt>{{ tile.label }}</dt>
          <dd class="value" [attr.title]="tile.title ?? null">{{ tile.value }}</dd>
          @if (tile.detail) {
            <dd class="detail">{{ tile.detail }}</dd>
          }
        </div>
      }
    </dl>
  `,
  styles: `
    .tiles {
      display: grid;
      grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr));
      gap: 0.75rem;
      margin: 0 0 1rem;
    }
    .tile {
      border: 1px solid var(--mat-sys-outline-variant);
      border-radius: 12px;
      padding: 0.6rem 0.85rem;
      background: var(--mat-sys-surface-container-low);
    }
    dt {
      font: var(--mat-sys-label-medium);
      color: var(--mat-sys-on-surface-variant);
    }
    dd {
      margin: 0;
    }
    .value {
      font: var(--mat-sys-headline-small);
      font-variant-numeric: tabular-nums;
    }
    .detail {
      font: var(--mat-sys-body-small);
      color: var(--mat-sys-on-surface-variant);
    }
  `,
})
export class SummaryTiles {
  readonly summary = input.required<AnalyticsSummary>();

  protected readonly tiles = computed<Tile[]>(() => {
    const s = this.summary();
    const t = s.tokens;
    const allTokens = t.input + t.output + t.cache_read + t.cache_creation;
    const median = formatDuration(s.duration.median_ms);
    const p95 = formatDuration(s.duration.p95_ms);
    return [
      {
        label: $localize`Turns`,
        value: formatCount(s.turns),
        detail: modelCallsNote(s.model_calls),
      },
      { label: $localize`Sessions`, value: formatCount(s.sessions), detail: '' },
      {
        label: $localize`Tokens`,
        value: formatTokens(allTokens),
        title: $localize`${formatCount(allTokens)}:count: tokens`,
        detail: $localize`in ${formatTokens(t.input)}:input: · out ${formatTokens(t.output)}:output: · cache read ${formatTokens(t.cache_read)}:cacheRead: · cache write ${formatTokens(t.cache_creation)}:cacheWrite:`,
      },
      {
        label: $localize`Estimated cost`,
        value: formatCostEstimate(s.cost, s.turns),
        detail: [$localize`:an estimated cost:estimate`, unknownCostNote(s.cost.unknown_cost_turns)]
          .filter(Boolean)
          .join(' · '),
      },
      {
        label: $localize`Median duration`,
        value: median,
        detail: $localize`half of the turns finish within ${median}:duration:`,
      },
      {
        label: $localize`P95 duration`,
        value: p95,
        detail: $localize`95 % of turns finish within ${p95}:duration:`,
      },
      {
        label: $localize`Cache hit rate`,
        value: formatRate(s.cache_hit_rate),
        detail: $localize`cache reads over all input`,
      },
      {
        label: $localize`Errors`,
        value: formatCount(s.errors.count),
        detail: $localize`${formatRate(s.errors.rate)}:rate: of turns`,
      },
    ];
  });
}
