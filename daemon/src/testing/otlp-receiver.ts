import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';

interface KeyValue {
  key: string;
  value: { stringValue?: string; intValue?: string | number; doubleValue?: number };
}
interface NumberPoint {
  attributes?: KeyValue[];
  asDouble?: number;
  asInt?: string | number;
}
interface HistogramPoint {
  attributes?: KeyValue[];
  count: string | number;
  sum?: number;
}
interface OtlpMetric {
  name: string;
  sum?: { dataPoints: NumberPoint[]; isMonotonic?: boolean };
  gauge?: { dataPoints: NumberPoint[] };
  histogram?: { dataPoints: HistogramPoint[] };
}
export interface OtlpExport {
  resourceMetrics: {
    resource?: { attributes?: KeyValue[] };
    scopeMetrics: { scope?: { name?: string }; metrics: OtlpMetric[] }[];
  }[];
}

/** One point as the tests read it: its attributes flattened, its number. */
export interface Point {
  attributes: Record<string, string>;
  value: number;
}

const flat = (attributes: KeyValue[] = []): Record<string, string> =>
  Object.fromEntries(
    attributes.map((a) => [
      a.key,
      String(a.value.stringValue ?? a.value.intValue ?? a.value.doubleValue ?? ''),
    ]),
  );

/** The points of a metric in one export: sums and gauges by value, histograms by count. */
export function pointsOf(body: OtlpExport, name: string): Point[] {
  const points: Point[] = [];
  for (const resource of body.resourceMetrics)
    for (const scope of resource.scopeMetrics)
      for (const metric of scope.metrics) {
        if (metric.name !== name) continue;
        for (const p of metric.sum?.dataPoints ?? metric.gauge?.dataPoints ?? [])
          points.push({
            attributes: flat(p.attributes),
            value: Number(p.asDouble ?? p.asInt ?? 0),
          });
        for (const p of metric.histogram?.dataPoints ?? [])
          points.push({ attributes: flat(p.attributes), value: Number(p.count) });
      }
  return points;
}

export function resourceOf(body: OtlpExport): Record<string, string> {
  return flat(body.resourceMetrics[0]?.resource?.attributes);
}

/** A stand-in OTLP/HTTP collector: keeps every JSON export posted to /v1/metrics. */
export class OtlpReceiver {
  readonly exports: OtlpExport[] = [];
  readonly paths: string[] = [];
  private server: Server | null = null;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.paths.push(request.url ?? '');
        let body = Buffer.concat(chunks);
        if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        this.exports.push(JSON.parse(body.toString('utf8')) as OtlpExport);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (!address || typeof address !== 'object') throw new Error('no address');
    return `http://127.0.0.1:${address.port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
