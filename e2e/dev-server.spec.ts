import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, startDaemon, type RunningDaemon } from './support/daemon';
import { expect, test } from './support/fixtures';

// Console development: `ng serve` with the repository's proxy.conf.json in front of a running
// daemon started with RELAIS_DEV_ORIGINS. Only the proxy's target port differs from the file.
let daemon: RunningDaemon;
let devServer: ChildProcess;
let devOrigin: string;
const scratch = mkdtempSync(join(tmpdir(), 'relais-e2e-dev-'));

function proxyConfigFor(daemonBase: string): string {
  const config = JSON.parse(readFileSync('proxy.conf.json', 'utf8')) as Record<
    string,
    { target: string }
  >;
  config['/api']!.target = daemonBase;
  const file = join(scratch, 'proxy.conf.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

async function startDevServer(port: number, proxyConfig: string): Promise<ChildProcess> {
  const ng = resolve('node_modules/@angular/cli/bin/ng.js');
  const child = spawn(
    process.execPath,
    [ng, 'serve', '--port', String(port), '--proxy-config', proxyConfig, '--no-live-reload'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NG_CLI_ANALYTICS: 'false' } },
  );
  let output = '';
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      fail(new Error(`ng serve did not start:\n${output}`));
    }, 300_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString().replace(/\u001b\[[0-9;]*m/g, '');
      if (output.includes(`localhost:${port}`)) {
        clearTimeout(timer);
        done();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => fail(new Error(`ng serve exited (${code}):\n${output}`)));
  });
  return child;
}

test.beforeAll(async () => {
  test.setTimeout(360_000);
  const port = await freePort();
  devOrigin = `http://localhost:${port}`;
  daemon = await startDaemon({ env: { RELAIS_DEV_ORIGINS: devOrigin } });
  devServer = await startDevServer(port, proxyConfigFor(daemon.base));
});

test.afterAll(async () => {
  devServer?.kill('SIGTERM');
  await daemon?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

test('ng serve with proxy.conf.json: a deep link opens a live conversation whose prompt is answered', async ({
  page,
  relais,
}) => {
  await page.goto(`${devOrigin}/#key=${daemon.key}`);
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();

  const response = await page.request.post(`${daemon.base}/api/sessions`, {
    headers: { Authorization: `Bearer ${daemon.key}` },
    data: {
      subscription_id: 'demo',
      model: 'default',
      cwd: relais.cwd,
      prompt: 'demo:bash echo through-the-dev-proxy',
      app: 'e2e-dev',
    },
  });
  expect(response.status()).toBe(201);
  const { id } = (await response.json()) as { id: string };

  // A reload on a deep link must load the app's scripts, not the index page in their place.
  await page.goto(`${devOrigin}/sessions/${id}`);
  await page.getByRole('button', { name: 'Allow once' }).first().click();
  await expect(page.getByText('through-the-dev-proxy', { exact: true }).first()).toBeVisible();
  await expect(page.getByText(/Turn finished/)).toBeVisible();
});
