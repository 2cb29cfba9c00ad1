import type { EChartsCoreOption } from 'echarts/core';
import { AnalyticsTimeseries, BreakdownBy } from '../../../contract/usage';
import {
  formatCost,
  formatCount,
  formatDuration,
  formatRate,
  formatTokens,
} from './analytics-format';

/** What a chart card shows: the chart, the same data as a table, and a one-line description. */
export interface ChartModel {
  option: EChartsCoreOption;
  table: { columns: string[]; rows: string[][] };
  description: string;
}

/** Canvas colours cannot read CSS variables: the two themes' colours, chosen for contrast on each. */
export interface ChartPalette {
  text: string;
  muted: string;
  line: string;
  series: readonly string[];
}

export const LIGHT_PALETTE: ChartPalette = {
  text: '#1a1c1e',
  muted: '#44474e',
  line: '#c4c6cf',
  series: ['#1f6fd1', '#c25e00', '#0f8a5f', '#8a3ffc', '#d12771', '#5b6670'],
};
export const DARK_PALETTE: ChartPalette = {
  text: '#e2e2e6',
  muted: '#c4c6cf',
  line: '#44474e',
  series: ['#78a9ff', '#ffb464', '#42be92', '#be95ff', '#ff7eb6', '#a2a9b0'],
};

type Timeseries = AnalyticsTimeseries;
type Point = Timeseries['points'][number];

/** A bucket start as a table label: the date for day buckets, the minute otherwise (local time). */
export function bucketLabel(iso: string, bucketMs: number): string {
  const d = new Date(iso);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return bucketMs >= 86_400_000 ? day : `${day} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function base(
  palette: ChartPalette,
  valueFormatter: (v: number) => string,
  legend: boolean,
): EChartsCoreOption {
  return {
    backgroundColor: 'transparent',
    color: [...palette.series],
    animationDuration: 300,
    textStyle: { color: palette.text },
    grid: { left: 8, right: 16, top: legend ? 36 : 12, bottom: 8, containLabel: true },
    legend: legend
      ? { top: 0, icon: 'roundRect', textStyle: { color: palette.text } }
      : { show: false },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: unknown) => (typeof v === 'number' ? valueFormatter(v) : '—'),
    },
    xAxis: {
      type: 'time',
      axisLine: { lineStyle: { color: palette.line } },
      axisLabel: { color: palette.muted, hideOverlap: true },
    },
    yAxis: {
      type: 'value',
      axisLabel: { color: palette.muted, formatter: (v: number) => valueFormatter(v) },
      splitLine: { lineStyle: { color: palette.line, opacity: 0.6 } },
    },
  };
}

/** A line; when values are sparse, dots mark the buckets that hold one (a lone bucket would not show). */
function series(
  name: string,
  points: Point[],
  value: (p: Point) => number | null,
  extra: object = {},
): object {
  const data = points.map((p) => [p.t, value(p)] as const);
  const present = data.filter(([, v]) => v !== null && v !== 0).length;
  const symbol =
    present < 80 ? (v: readonly [string, number | null]) => (v[1] ? 'circle' : 'none') : 'none';
  return {
    name,
    type: 'line',
    showSymbol: present < 80,
    symbol,
    symbolSize: 6,
    connectNulls: false,
    data,
    ...extra,
  };
}

/** Table rows: the buckets that hold turns (the chart draws the empty ones at zero or as gaps). */
function busy(ts: Timeseries): Point[] {
  return ts.points.filter((p) => p.turns > 0);
}

const TOKEN_KINDS = [
  { key: 'input', label: $localize`Input` },
  { key: 'output', label: $localize`Output` },
  { key: 'cache_read', label: $localize`Cache read` },
  { key: 'cache_creation', label: $localize`Cache creation` },
] as const;

/** Tokens per bucket, stacked by kind. */
export function tokensChart(ts: Timeseries, palette: ChartPalette): ChartModel {
  const stacked = { stack: 'tokens', areaStyle: { opacity: 0.35 }, emphasis: { focus: 'series' } };
  const totals = TOKEN_KINDS.map((k) => ts.points.reduce((sum, p) => sum + p.tokens[k.key], 0));
  return {
    option: {
      ...base(palette, formatTokens, true),
      series: TOKEN_KINDS.map((k) => series(k.label, ts.points, (p) => p.tokens[k.key], stacked)),
    },
    table: {
      columns: [$localize`Bucket start`, ...TOKEN_KINDS.map((k) => `${k.label} tokens`)],
      rows: busy(ts).map((p) => [
        bucketLabel(p.t, ts.bucket_ms),
        ...TOKEN_KINDS.map((k) => formatCount(p.tokens[k.key])),
      ]),
    },
    description: $localize`Tokens per ${ts.bucket}, stacked by kind. Totals: ${TOKEN_KINDS.map((k, i) => `${k.label.toLowerCase()} ${formatTokens(totals[i] ?? 0)}`).join(', ')}.`,
  };
}

/** Median and P95 turn duration per bucket (gaps where a bucket has no turn). */
export function durationChart(ts: Timeseries, palette: ChartPalette): ChartModel {
  return {
    option: {
      ...base(palette, (v) => formatDuration(v), true),
      series: [
        series('Median', ts.points, (p) => p.duration.median_ms),
        series('P95', ts.points, (p) => p.duration.p95_ms),
      ],
    },
    table: {
      columns: [
        $localize`Bucket start`,
        $localize`Turns`,
        $localize`Median duration`,
        $localize`P95 duration`,
      ],
      rows: busy(ts).map((p) => [
        bucketLabel(p.t, ts.bucket_ms),
        formatCount(p.turns),
        formatDuration(p.duration.median_ms),
        formatDuration(p.duration.p95_ms),
      ]),
    },
    description: $localize`Median and 95th percentile turn duration per ${ts.bucket}.`,
  };
}

/** Cache hit rate per bucket, in percent. */
export function cacheChart(ts: Timeseries, palette: ChartPalette): ChartModel {
  const option = base(palette, (v) => `${Math.round(v)} %`, false);
  return {
    option: {
      ...option,
      yAxis: { ...(option['yAxis'] as object), min: 0, max: 100 },
      series: [
        series($localize`Cache hit rate`, ts.points, (p) =>
          p.cache_hit_rate === null ? null : p.cache_hit_rate * 100,
        ),
      ],
    },
    table: {
      columns: [$localize`Bucket start`, $localize`Turns`, $localize`Cache hit rate`],
      rows: busy(ts).map((p) => [
        bucketLabel(p.t, ts.bucket_ms),
        formatCount(p.turns),
        formatRate(p.cache_hit_rate),
      ]),
    },
    description: $localize`Cache hit rate (cache-read tokens over all input tokens) per ${ts.bucket}.`,
  };
}

/** Failed turns per bucket. */
export function errorsChart(ts: Timeseries, palette: ChartPalette): ChartModel {
  const total = ts.points.reduce((sum, p) => sum + p.errors, 0);
  return {
    option: {
      ...base(palette, (v) => formatCount(v), false),
      color: [palette.series[4]],
      series: [
        {
          name: 'Errors',
          type: 'bar',
          barMaxWidth: 14,
          data: ts.points.map((p) => [p.t, p.errors]),
        },
      ],
    },
    table: {
      columns: [$localize`Bucket start`, $localize`Turns`, $localize`Errors`],
      rows: busy(ts).map((p) => [
        bucketLabel(p.t, ts.bucket_ms),
        formatCount(p.turns),
        formatCount(p.errors),
      ]),
    },
    description: $localize`Failed turns per ${ts.bucket}:bucket:: ${formatCount(total)}:total: in all.`,
  };
}

export interface CostRow {
  key: string;
  turns: number;
  cost: { estimate_usd: number; unknown_cost_turns: number };
}

/** Estimated cost per model, subscription or app; a key whose every turn is unpriced has no bar. */
export function costChart(rows: CostRow[], by: BreakdownBy, palette: ChartPalette): ChartModel {
  const sorted = [...rows].sort((a, b) => b.cost.estimate_usd - a.cost.estimate_usd);
  return {
    option: costChartOption(sorted, palette),
    table: {
      columns: [
        by[0]!.toUpperCase() + by.slice(1),
        $localize`Turns`,
        $localize`Estimated cost`,
        $localize`Turns with unknown cost`,
      ],
      rows: sorted.map((r) => [
        r.key,
        formatCount(r.turns),
        formatCost(knownCost(r)),
        formatCount(r.cost.unknown_cost_turns),
      ]),
    },
    description: `Estimated cost by ${by}, highest first: ${sorted
      .slice(0, 3)
      .map((r) => `${r.key} ${formatCost(knownCost(r))}`)
      .join(', ')}${sorted.length > 3 ? '…' : ''}.`,
  };
}

/** A key's estimate, or null when none of its turns could be priced. */
function knownCost(r: CostRow): number | null {
  return r.turns > 0 && r.cost.unknown_cost_turns >= r.turns ? null : r.cost.estimate_usd;
}

/** Horizontal bars, highest cost first, for rows already sorted so. */
function costChartOption(sorted: CostRow[], palette: ChartPalette): EChartsCoreOption {
  return {
    backgroundColor: 'transparent',
    color: [palette.series[0]],
    animationDuration: 300,
    textStyle: { color: palette.text },
    grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (params: unknown) => {
        const index = (Array.isArray(params) ? params[0] : params)?.dataIndex as number | undefined;
        const row = index === undefined ? undefined : sorted[index];
        return row ? `${escapeHtml(row.key)}: ${formatCost(knownCost(row))} (estimate)` : '';
      },
    },
    xAxis: {
      type: 'value',
      axisLabel: {
        color: palette.muted,
        hideOverlap: true,
        formatter: (v: number) => formatCost(v),
      },
      splitLine: { lineStyle: { color: palette.line, opacity: 0.6 } },
    },
    yAxis: {
      type: 'category',
      inverse: true,
      data: sorted.map((r) => r.key),
      axisLabel: { color: palette.muted, width: 160, overflow: 'truncate' },
      axisLine: { lineStyle: { color: palette.line } },
    },
    // An unpriced key gets no bar but the word "unknown" where its bar would start: never $0.
    series: [
      {
        name: $localize`Estimated cost`,
        type: 'bar',
        barMaxWidth: 22,
        label: {
          show: true,
          position: 'right',
          color: palette.muted,
          formatter: (p: { dataIndex: number }) => formatCost(knownCost(sorted[p.dataIndex]!)),
        },
        data: sorted.map((r) => knownCost(r) ?? { value: 0, itemStyle: { color: 'transparent' } }),
      },
    ],
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
