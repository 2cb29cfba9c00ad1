import { dateAndMinute } from '../shared/time-format';
import { AccessApi } from '../access/access-api';
import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatButtonToggleModule } from '@angular/material/button-toggle';
import { provideEchartsCore } from 'ngx-echarts';
import { TurnRow } from '../../../contract/usage';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { ActivePage } from '../core/routing/active-page';
import { Navigator } from '../core/routing/navigator';
import { Theme } from '../core/theme';
import { followed, latest } from '../shared/followed';
import { reading } from '../shared/reading';
import { AnalyticsApi, ExportFormat } from './analytics-api';
import {
  FilterState,
  EMPTY_FILTER,
  LIST_KEYS,
  PERIODS,
  filterFromParams,
  filterToParams,
  filterToQuery,
  periodProblem,
} from './analytics-filter';
import { ChartCard } from './chart-card';
import {
  CostRow,
  DARK_PALETTE,
  LIGHT_PALETTE,
  cacheChart,
  costChart,
  durationChart,
  errorsChart,
  tokensChart,
} from './chart-model';
import { FilterBar, FilterOptions } from './filter-bar';
import { saveBlob } from '../shared/save-blob';
import { registerPageCommands } from '../palette/page-commands';
import { SummaryTiles } from './summary-tiles';
import { ToolTable } from './tool-table';
import { TurnsTable } from './turns-table';

export type CostBy = 'model' | 'subscription' | 'app';
const SERIES_POINTS = 240;
const TURNS_PAGE = 50;

/** The component's words, in the console's language. */
const TEXT = {
  analytics: $localize`Analytics`,
  costsAreEstimates: (scope: unknown) => $localize`${scope}:scope: · costs are estimates`,
  updating: $localize`Updating…`,
  refresh: $localize`Refresh`,
  exporting: $localize`Exporting…`,
  exportCsv: $localize`Export CSV`,
  exportJson: $localize`Export JSON`,
  theExportFailed: (message: unknown, code: unknown) =>
    $localize`The export failed: ${message}:message: (${code}:code:)`,
  theFiguresCouldNot: (message: unknown, code: unknown) =>
    $localize`The figures could not be loaded: ${message}:message: (${code}:code:)`,
  retry: $localize`Retry`,
  loadingFigures: $localize`Loading figures…`,
  noTurnInThis: $localize`No turn in this scope. Widen the period or clear the filters; turns are counted as sessions run.`,
  theTimeSeriesCould: (message: unknown, code: unknown) =>
    $localize`The time series could not be loaded: ${message}:message: (${code}:code:)`,
  tokensOverTime: $localize`Tokens over time`,
  loadingCharts: $localize`Loading charts…`,
  estimatedCost: $localize`Estimated cost`,
  costBy: $localize`Cost by`,
  model: $localize`Model`,
  subscription: $localize`Subscription`,
  theCostBreakdownCould: (message: unknown) =>
    $localize`The cost breakdown could not be loaded: ${message}:message:`,
  turnDurationMedianAnd: $localize`Turn duration (median and P95)`,
  cacheHitRate: $localize`Cache hit rate`,
  errors: $localize`Errors`,
  theTurnsCouldNot: (message: unknown, code: unknown) =>
    $localize`The turns could not be loaded: ${message}:message: (${code}:code:)`,
  moreTurnsCouldNot: (message: unknown) =>
    $localize`More turns could not be loaded: ${message}:message:`,
  app: $localize`App`,
};

function mapOrNull<T, R>(value: T | null, fn: (value: T) => R): R | null {
  return value === null ? null : fn(value);
}

function failure(error: unknown): ApiFailure | null {
  return error === undefined ? null : toApiFailure(error);
}

/** Consumption of a filtered scope: figures, charts (each with a table), tools, turns, export. */
@Component({
  selector: 'app-analytics-page',
  imports: [
    MatButtonModule,
    MatButtonToggleModule,
    FilterBar,
    SummaryTiles,
    ChartCard,
    ToolTable,
    TurnsTable,
  ],
  // The chart library loads with the first chart, not with the page.
  providers: [
    provideEchartsCore({ echarts: () => import('./echarts-setup').then((m) => m.echarts) }),
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './analytics-page.html',
  styleUrl: './analytics-page.scss',
})
export class AnalyticsPage {
  protected readonly t = TEXT;
  private readonly api = inject(AnalyticsApi);
  private readonly navigator = inject(Navigator);
  private readonly page = inject(ActivePage);
  private readonly theme = inject(Theme);
  /** The caller keys, for the Caller filter (none listed when they cannot be read). */
  private readonly access = inject(AccessApi);
  protected readonly callers = reading({ loader: () => this.access.list() });
  protected readonly callerChoices = computed(() =>
    this.callers.hasValue() ? this.callers.value().map(({ id, name }) => ({ id, name })) : [],
  );

  protected readonly filter = computed(() => filterFromParams(this.page.query()), {
    equal: (a, b) => JSON.stringify(a) === JSON.stringify(b),
  });
  protected readonly problem = computed(() => periodProblem(this.filter()));
  private readonly refreshes = signal(0);

  /** The daemon's query; a preset period is resolved here, once per filter change or refresh. */
  protected readonly query = computed(() => {
    this.refreshes();
    return this.problem() ? undefined : filterToQuery(this.filter(), Date.now());
  });
  protected readonly scope = computed(() => {
    const query = this.query();
    if (!query) return '';
    const from = query['from'] ? dateAndMinute(Date.parse(query['from'])) : 'the first turn';
    const to = query['to'] ? dateAndMinute(Date.parse(query['to'])) : 'now';
    return `${from} → ${to}`;
  });

  private readonly palette = computed(() => (this.theme.isDark() ? DARK_PALETTE : LIGHT_PALETTE));

  protected readonly summary = reading({
    params: () => this.query(),
    loader: ({ params }) => this.api.summary(params),
  });
  protected readonly series = reading({
    params: () => this.query(),
    loader: ({ params }) => this.api.timeseries(params, SERIES_POINTS),
  });
  protected readonly costBy = signal<CostBy>('model');
  protected readonly cost = reading({
    params: () => {
      const query = this.query();
      return query ? { query, by: this.costBy() } : undefined;
    },
    loader: ({ params }) => this.api.breakdown(params.query, params.by),
  });
  /** Values to choose from: what the period holds, whatever the other filters. */
  protected readonly choices = reading({
    params: () => {
      const query = this.query();
      if (!query) return undefined;
      const period: Record<string, string> = {};
      if (query['from']) period['from'] = query['from'];
      if (query['to']) period['to'] = query['to'];
      return period;
    },
    loader: async ({ params }) => {
      const lists = await Promise.all(LIST_KEYS.map((by) => this.api.breakdown(params, by)));
      const options = {} as FilterOptions;
      LIST_KEYS.forEach((key, i) => {
        const answer = lists[i]!;
        options[key] =
          answer.by === 'tool'
            ? answer.items.map((t) => t.tool_name)
            : answer.items.map((r) => r.key);
      });
      return options;
    },
  });
  protected readonly options = computed<FilterOptions>(() =>
    this.choices.hasValue()
      ? this.choices.value()
      : { agent: [], model: [], tool: [], subscription: [], app: [] },
  );

  private readonly firstTurns = reading({
    params: () => this.query(),
    loader: ({ params }) => this.api.turns(params, TURNS_PAGE, null),
  });
  private readonly firstPage = computed(() =>
    this.firstTurns.hasValue() ? this.firstTurns.value() : null,
  );
  protected readonly turns = followed(this.firstPage, (page): TurnRow[] => page?.items ?? []);
  private readonly cursor = followed(this.firstPage, (page) => page?.next_cursor ?? null);
  protected readonly hasMore = computed(() => this.cursor() !== null);
  protected readonly loadingMore = signal(false);
  protected readonly turnsError = signal<ApiFailure | null>(null);

  protected readonly summaryError = computed(() => failure(this.summary.error()));
  protected readonly seriesError = computed(() => failure(this.series.error()));
  protected readonly costError = computed(() => failure(this.cost.error()));
  protected readonly firstTurnsError = computed(() => failure(this.firstTurns.error()));

  private readonly seriesValue = computed(() =>
    this.series.hasValue() ? this.series.value() : null,
  );
  protected readonly figures = latest(() =>
    this.summary.hasValue() ? this.summary.value() : null,
  );
  protected readonly tokensModel = latest(() =>
    mapOrNull(this.seriesValue(), (ts) => tokensChart(ts, this.palette())),
  );
  protected readonly durationModel = latest(() =>
    mapOrNull(this.seriesValue(), (ts) => durationChart(ts, this.palette())),
  );
  protected readonly cacheModel = latest(() =>
    mapOrNull(this.seriesValue(), (ts) => cacheChart(ts, this.palette())),
  );
  protected readonly errorsModel = latest(() =>
    mapOrNull(this.seriesValue(), (ts) => errorsChart(ts, this.palette())),
  );
  protected readonly costModel = latest(() => {
    if (!this.cost.hasValue()) return null;
    const answer = this.cost.value();
    if (answer.by === 'tool') return null;
    return costChart(answer.items as CostRow[], answer.by, this.palette());
  });
  /** Whether something is being read again while older figures stay shown. */
  protected readonly updating = computed(
    () => this.summary.isLoading() || this.series.isLoading() || this.cost.isLoading(),
  );

  protected readonly exporting = signal<ExportFormat | null>(null);
  protected readonly exportError = signal<ApiFailure | null>(null);

  constructor() {
    registerPageCommands(() => [
      {
        id: 'analytics-refresh',
        group: $localize`Analytics`,
        label: $localize`Refresh the figures`,
        keywords: 'reload',
        run: () => this.refresh(),
      },
      {
        id: 'analytics-export-csv',
        group: $localize`Analytics`,
        label: $localize`Export the turns as CSV`,
        keywords: 'download',
        run: () => void this.exportAs('csv'),
      },
      {
        id: 'analytics-export-json',
        group: $localize`Analytics`,
        label: $localize`Export the turns as JSON`,
        keywords: 'download',
        run: () => void this.exportAs('json'),
      },
      {
        id: 'analytics-clear',
        group: $localize`Analytics`,
        label: $localize`Clear the filters`,
        keywords: 'reset filter',
        run: () => this.applyFilter(EMPTY_FILTER),
      },
      ...PERIODS.filter((period) => period.value !== 'custom').map((period) => ({
        id: 'analytics-period-' + period.value,
        group: $localize`Analytics`,
        label: `Filter: ${period.label}`,
        keywords: 'period time range',
        run: () =>
          this.applyFilter({ ...this.filter(), period: period.value, from: null, to: null }),
      })),
      ...(['model', 'subscription', 'app'] as const).map((by) => ({
        id: 'analytics-cost-' + by,
        group: $localize`Analytics`,
        label: $localize`Show the cost by ${by}`,
        keywords: 'breakdown chart',
        run: () => this.setCostBy(by),
      })),
    ]);
  }

  protected applyFilter(next: FilterState): void {
    // A new history entry per change: the back button steps back through filters.
    void this.navigator.mergeQuery(filterToParams(next));
  }

  protected refresh(): void {
    this.refreshes.update((n) => n + 1);
  }

  protected setCostBy(by: CostBy): void {
    this.costBy.set(by);
  }

  protected async showMoreTurns(): Promise<void> {
    const query = this.query();
    const cursor = this.cursor();
    if (!query || cursor === null || this.loadingMore()) return;
    this.loadingMore.set(true);
    this.turnsError.set(null);
    try {
      const page = await this.api.turns(query, TURNS_PAGE, cursor);
      // The filters changed while the page came: it belongs to the list no longer shown.
      if (this.query() !== query) return;
      this.turns.update((rows) => [...rows, ...page.items]);
      this.cursor.set(page.next_cursor);
    } catch (error: unknown) {
      // A failed page leaves the rows shown; the person may ask again.
      if (this.query() === query) this.turnsError.set(toApiFailure(error));
    } finally {
      this.loadingMore.set(false);
    }
  }

  /** Exactly the scope on screen: the same resolved query the figures were read with. */
  protected async exportAs(format: ExportFormat): Promise<void> {
    const query = this.query();
    if (!query || this.exporting()) return;
    this.exporting.set(format);
    this.exportError.set(null);
    try {
      const blob = await this.api.export(query, format);
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      saveBlob(blob, `relais-turns-${stamp}.${format}`);
    } catch (error: unknown) {
      // The download failed (daemon gone, filter refused): say so next to the buttons.
      this.exportError.set(toApiFailure(error));
    } finally {
      this.exporting.set(null);
    }
  }
}
