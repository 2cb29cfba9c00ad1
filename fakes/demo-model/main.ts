/**
 * Manual entry point: `node dist/daemon/fakes/demo-model/main.js --port 18080 [--host 127.0.0.1] [--delay-scale 1]`.
 * Prints the base URL to put in ANTHROPIC_BASE_URL.
 */
import { parseArgs } from 'node:util';

import { startDemoModel } from './server.js';

export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      'delay-scale': { type: 'string', default: '1' },
    },
  });
  const port = Number.parseInt(values.port, 10);
  const delayScale = Number.parseFloat(values['delay-scale']);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Invalid --port ${values.port}`);
  if (!Number.isFinite(delayScale) || delayScale < 0)
    throw new Error(`Invalid --delay-scale ${values['delay-scale']}`);
  const model = await startDemoModel({ port, host: values.host, delayScale });
  process.stdout.write(`${model.url}\n`);
  const stop = (): void => {
    void model.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`demo-model: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
