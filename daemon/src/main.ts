import { configFromEnv } from './config.js';
import { build } from './app.js';
import { writeDaemonRecord } from './home/data-home.js';
import { isolationLine } from './isolation/isolation-gate.js';

/** The daemon's entry point: the only place that listens and handles signals. */
async function main(): Promise<void> {
  const config = configFromEnv();
  const relais = await build(config);
  const baseUrl = await relais.listen();
  writeDaemonRecord(config.home, {
    pid: process.pid,
    port: relais.port(),
    base_url: baseUrl,
    started_at: new Date().toISOString(),
  });
  // The key travels in the fragment, which browsers never send to a server. One write: a reader of
  // the output (a person, a script waiting for the URL) gets the warning with the URL, never after.
  const isolation = isolationLine(config.isolation);
  process.stdout.write(
    `\nRelais is running. Open the console:\n\n  ${baseUrl}/#key=${relais.apiKey}\n\nData folder: ${config.home}\n\n` +
      (isolation ? `${isolation}\n\n` : ''),
  );
  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    relais.app.log.info({ signal }, 'shutting down');
    relais.close().then(
      () => process.exit(0),
      (error: unknown) => {
        relais.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Relais could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
