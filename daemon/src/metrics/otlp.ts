import { ValueType } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  PeriodicExportingMetricReader,
  type CollectionResult,
  type MetricData,
  type MetricProducer,
} from '@opentelemetry/sdk-metrics';
import type { MetricObjectWithValues, MetricValue, Registry } from 'prom-client';

/** A value as getMetricsAsJSON gives it: histogram rows also name their series (`_bucket`…). */
type Row = MetricValue<string> & { metricName?: string };
type Attributes = Record<string, string | number>;

export interface OtlpPush {
  close(): Promise<void>;
}

const DEFAULT_INTERVAL_MS = 60_000;
const CLOSE_WAIT_MS = 3000;

async function within(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  await Promise.race([work, late]);
  clearTimeout(timer);
}

/**
 * Where to push, from RELAIS_OTLP_ENDPOINT (a base URL, as OTEL_EXPORTER_OTLP_ENDPOINT is) or the
 * standard OTEL_EXPORTER_OTLP_[METRICS_]ENDPOINT; null when none is set or OTel is switched off.
 */
export function otlpTarget(env: NodeJS.ProcessEnv): { url?: string; intervalMs: number } | null {
  if (env['OTEL_SDK_DISABLED'] === 'true' || env['OTEL_METRICS_EXPORTER'] === 'none') return null;
  const relais = env['RELAIS_OTLP_ENDPOINT']?.trim();
  const standard =
    env['OTEL_EXPORTER_OTLP_METRICS_ENDPOINT']?.trim() ||
    env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim();
  if (!relais && !standard) return null;
  const interval = Number(env['OTEL_METRIC_EXPORT_INTERVAL']);
  const intervalMs = Number.isFinite(interval) && interval >= 100 ? interval : DEFAULT_INTERVAL_MS;
  // Without RELAIS_OTLP_ENDPOINT the exporter reads the OTEL_* variables itself.
  if (!relais) return { intervalMs };
  const url = /\/v1\/metrics\/?$/.test(relais)
    ? relais
    : `${relais.replace(/\/+$/, '')}/v1/metrics`;
  return { url, intervalMs };
}

/**
 * Pushes the registry's families over OTLP/HTTP with the OpenTelemetry SDK: the same values as
 * GET /metrics, read from the same collect callbacks, translated by a metric producer.
 */
export function startOtlpPush(
  registry: Registry,
  env: NodeJS.ProcessEnv,
  service: { version: string; instance: string },
): OtlpPush | null {
  const target = otlpTarget(env);
  if (!target) return null;
  const reader = new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter(target.url ? { url: target.url } : {}),
    exportIntervalMillis: target.intervalMs,
    exportTimeoutMillis: Math.min(30_000, target.intervalMs),
    metricProducers: [new RegistryProducer(registry)],
  });
  const provider = new MeterProvider({
    readers: [reader],
    resource: resourceFromAttributes({
      'service.name': 'relais',
      'service.version': service.version,
      'service.instance.id': service.instance,
    }),
  });
  return {
    // Shutting down pushes once more, so the last figures are not lost; an unreachable
    // collector holds the daemon's exit for CLOSE_WAIT_MS at most.
    close: () =>
      within(
        CLOSE_WAIT_MS,
        provider.shutdown().catch(() => undefined),
      ),
  };
}

type HrTime = [number, number];
const hrTime = (ms: number): HrTime => [Math.floor(ms / 1000), (ms % 1000) * 1e6];

/** Reads a prom-client registry as OpenTelemetry metric data (cumulative, as Prometheus is). */
export class RegistryProducer implements MetricProducer {
  private readonly startMs = Date.now();

  constructor(private readonly registry: Registry) {}

  async collect(): Promise<CollectionResult> {
    const families = (await this.registry.getMetricsAsJSON()) as MetricObjectWithValues<
      MetricValue<string>
    >[];
    const start = hrTime(this.startMs);
    const end = hrTime(Date.now());
    const metrics = families.flatMap((family) => toOtel(family, start, end));
    return {
      resourceMetrics: {
        resource: resourceFromAttributes({}),
        scopeMetrics: [{ scope: { name: 'relais' }, metrics }],
      },
      errors: [],
    };
  }
}

function toOtel(
  family: MetricObjectWithValues<MetricValue<string>>,
  startTime: HrTime,
  endTime: HrTime,
): MetricData[] {
  const descriptor = {
    name: family.name,
    description: family.help,
    unit: unitOf(family.name),
    valueType: ValueType.DOUBLE,
  };
  const point = <T>(attributes: Record<string, string | number>, value: T) => ({
    startTime,
    endTime,
    attributes,
    value,
  });
  const type = String(family.type);
  if (type === 'counter' || type === 'gauge') {
    const dataPoints = family.values.map((v) => point(v.labels as Attributes, v.value));
    if (type === 'gauge')
      return [
        {
          descriptor,
          aggregationTemporality: AggregationTemporality.CUMULATIVE,
          dataPointType: DataPointType.GAUGE,
          dataPoints,
        },
      ];
    return [
      {
        descriptor,
        aggregationTemporality: AggregationTemporality.CUMULATIVE,
        dataPointType: DataPointType.SUM,
        isMonotonic: true,
        dataPoints,
      },
    ];
  }
  if (type === 'histogram')
    return [
      {
        descriptor,
        aggregationTemporality: AggregationTemporality.CUMULATIVE,
        dataPointType: DataPointType.HISTOGRAM,
        dataPoints: histogramPoints(family.values).map((h) => point(h.labels, h.value)),
      },
    ];
  return [];
}

interface HistogramSeries {
  labels: Record<string, string | number>;
  value: {
    buckets: { boundaries: number[]; counts: number[] };
    sum: number;
    count: number;
  };
}

/** prom-client gives cumulative `_bucket` rows with `le`; OTLP wants per-bucket counts. */
function histogramPoints(values: Row[]): HistogramSeries[] {
  const series = new Map<string, { labels: Record<string, string | number>; rows: Row[] }>();
  for (const v of values) {
    const { le: _le, ...labels } = v.labels as Record<string, string | number>;
    const key = JSON.stringify(labels);
    const entry = series.get(key) ?? { labels, rows: [] };
    entry.rows.push(v);
    series.set(key, entry);
  }
  return [...series.values()].map(({ labels, rows }) => {
    const buckets = rows
      .filter((r) => r.metricName?.endsWith('_bucket'))
      .map((r) => ({ le: Number(r.labels['le']), cumulative: r.value }))
      .sort((a, b) => a.le - b.le);
    const boundaries = buckets.filter((b) => Number.isFinite(b.le)).map((b) => b.le);
    const counts = buckets.map((b, i) => b.cumulative - (i > 0 ? buckets[i - 1]!.cumulative : 0));
    const sum = rows.find((r) => r.metricName?.endsWith('_sum'))?.value ?? 0;
    const count = rows.find((r) => r.metricName?.endsWith('_count'))?.value ?? 0;
    return { labels, value: { buckets: { boundaries, counts }, sum, count } };
  });
}

/** The UCUM unit a name's suffix says (Prometheus names carry their base unit). */
function unitOf(name: string): string {
  const base = name.replace(/_total$/, '');
  if (base.endsWith('_seconds')) return 's';
  if (base.endsWith('_bytes')) return 'By';
  if (base.endsWith('_ratio')) return '1';
  return '';
}
