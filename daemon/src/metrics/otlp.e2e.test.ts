import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AnalyticsSummary } from '../../../contract/usage.js';
import { startDaemonProcess, type DaemonProcess } from '../testing/daemon-process.js';
import { waitFor } from '../testing/harness.js';
import { otlpTarget } from './otlp.js';
import { OtlpReceiver, pointsOf, resourceOf, type OtlpExport } from '../testing/otlp-receiver.js';

const total = (body: OtlpExport, name: string, attributes: Record<string, string> = {}): number =>
  pointsOf(body, name)
    .filter((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v))
    .reduce((n, p) => n + p.value, 0);

describe('where the OTLP push goes', () => {
  it('is off by default and when OpenTelemetry is switched off', () => {
    assert.equal(otlpTarget({}), null);
    assert.equal(
      otlpTarget({ RELAIS_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' }),
      null,
    );
    assert.equal(
      otlpTarget({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x:4318', OTEL_METRICS_EXPORTER: 'none' }),
      null,
    );
  });

  it('takes RELAIS_OTLP_ENDPOINT as a base URL, or leaves the OTEL_* ones to the exporter', () => {
    assert.deepEqual(otlpTarget({ RELAIS_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' }), {
      url: 'http://127.0.0.1:4318/v1/metrics',
      intervalMs: 60_000,
    });
    assert.equal(
      otlpTarget({ RELAIS_OTLP_ENDPOINT: 'http://h:1/v1/metrics' })?.url,
      'http://h:1/v1/metrics',
    );
    assert.deepEqual(
      otlpTarget({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:1',
        OTEL_METRIC_EXPORT_INTERVAL: '5000',
      }),
      { intervalMs: 5000 },
    );
    assert.equal(
      otlpTarget({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:1', OTEL_METRIC_EXPORT_INTERVAL: 'x' })
        ?.intervalMs,
      60_000,
    );
  });
});

describe('the same metrics pushed over OTLP/HTTP', { timeout: 180_000 }, () => {
  const receiver = new OtlpReceiver();
  let daemon: DaemonProcess;
  let home: string;

  before(async () => {
    const url = await receiver.start();
    home = mkdtempSync(join(tmpdir(), 'relais-otlp-'));
    // A long interval: what arrives is the push the daemon makes as it shuts down.
    daemon = await startDaemonProcess(home, {
      RELAIS_OTLP_ENDPOINT: url,
      OTEL_METRIC_EXPORT_INTERVAL: '600000',
    });
  });
  after(async () => {
    await daemon?.stop();
    await receiver.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('delivers the turns and tokens the analytics summary counts, on close', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'relais-otlp-cwd-'));
    const launched = await daemon.call('POST', '/api/sessions', {
      subscription_id: 'demo',
      model: 'claude-sonnet-4-5',
      app: 'otlp-app',
      cwd,
      // A plain answer: no tool, so no prompt that a person would have to answer.
      prompt: 'hello',
    });
    assert.equal(launched.status, 201, launched.text);
    const summary = await waitFor('the turn recorded', async () => {
      const s = (await daemon.call<AnalyticsSummary>('GET', '/api/analytics/summary')).body;
      return s.turns >= 1 ? s : undefined;
    });
    const scraped = (await daemon.call('GET', '/metrics')).text;
    assert.equal(receiver.exports.length, 0, 'nothing pushed before the interval');
    await daemon.stop();
    const last = await waitFor('the push on shutdown', () => receiver.exports.at(-1));
    assert.deepEqual(receiver.paths, ['/v1/metrics']);
    assert.equal(resourceOf(last)['service.name'], 'relais');
    assert.equal(total(last, 'relais_turns_total'), summary.turns);
    assert.equal(total(last, 'relais_turns_total', { app: 'otlp-app' }), summary.turns);
    for (const [kind, value] of [
      ['input', summary.tokens.input],
      ['output', summary.tokens.output],
      ['cache_read', summary.tokens.cache_read],
      ['cache_write', summary.tokens.cache_creation],
    ] as const)
      assert.equal(total(last, 'relais_tokens_total', { kind }), value, kind);
    assert.ok(Math.abs(total(last, 'relais_cost_usd_total') - summary.cost.estimate_usd) < 1e-9);
    assert.equal(total(last, 'relais_turn_duration_seconds'), summary.turns);
    // The same families as the scrape: every relais_* name exposed is pushed.
    const names = new Set(scraped.match(/^# TYPE (relais_\w+)/gm)!.map((l) => l.slice(7)));
    const pushed = new Set(
      last.resourceMetrics.flatMap((r) =>
        r.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.name)),
      ),
    );
    assert.ok(names.size >= 20, `${names.size} families`);
    for (const name of names) assert.ok(pushed.has(name), `${name} pushed`);
  });
});

describe('a collector that never answers', { timeout: 60_000 }, () => {
  it("holds the daemon's exit a few seconds at most", async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const home = mkdtempSync(join(tmpdir(), 'relais-otlp-silent-'));
    const daemon = await startDaemonProcess(home, {
      RELAIS_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_METRIC_EXPORT_INTERVAL: '600000',
    });
    try {
      // The daemon prints its URL a moment before it handles SIGTERM: an answer says it does.
      assert.equal((await daemon.call('GET', '/metrics')).status, 200);
      const started = Date.now();
      await daemon.stop();
      const seconds = (Date.now() - started) / 1000;
      assert.ok(seconds < 8, `stopped in ${seconds} s`);
      assert.ok(held.length >= 1, 'the push on close reached the collector');
    } finally {
      await daemon.stop();
      for (const socket of held) socket.destroy();
      silent.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
