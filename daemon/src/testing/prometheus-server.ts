import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from './harness.js';

/** A free loopback port: bound, read, released. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address !== 'object') throw new Error('no port');
  return address.port;
}

export function requireBinary(name: string): void {
  const found = spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
  if (!found) throw new Error(`${name} is missing: run scripts/ensure-prometheus.sh`);
}

/** promtool's verdict on an exposition: its exit status and what it printed. */
export function promtoolCheck(exposition: string): { status: number | null; output: string } {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: exposition, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

export interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

export interface PrometheusServer {
  base: string;
  query(promql: string): Promise<Sample[]>;
  stop(): Promise<void>;
}

/** A real Prometheus on a free loopback port, scraping `target` every second with the key. */
export async function startPrometheus(target: string, key: string): Promise<PrometheusServer> {
  requireBinary('prometheus');
  const dir = mkdtempSync(join(tmpdir(), 'relais-prometheus-'));
  writeFileSync(join(dir, 'key'), key, { mode: 0o600 });
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global: { scrape_interval: 1s, scrape_timeout: 1s }',
      'scrape_configs:',
      '  - job_name: relais',
      '    metrics_path: /metrics',
      `    authorization: { credentials_file: ${JSON.stringify(join(dir, 'key'))} }`,
      `    static_configs: [{ targets: [${JSON.stringify(target)}] }]`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  await waitFor(
    `prometheus ready (${stderr.slice(-300)})`,
    async () => (await fetch(`${base}/-/ready`).catch(() => null))?.ok,
  );
  return {
    base,
    async query(promql) {
      const answer = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await answer.json()) as { status: string; data: { result: Sample[] } };
      if (body.status !== 'success') throw new Error(`query failed: ${JSON.stringify(body)}`);
      return body.data.result;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
