import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../app.js';
import { configFromEnv } from '../config.js';
import { buildOpenApi } from './openapi.js';

/** Writes the OpenAPI document to `openapi.json` at the repository root (kept in the repo). */
export async function generateOpenApi(): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'relais-openapi-'));
  const relais = await build({
    ...configFromEnv({ RELAIS_HOME: home }),
    consoleDir: null,
    logLevel: 'silent',
    demoModelUrl: 'http://127.0.0.1:9',
  });
  try {
    return `${JSON.stringify(buildOpenApi(relais.routes, '0'), null, 2)}\n`;
  } finally {
    await relais.close();
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('write-openapi.js')) {
  const target = join(process.cwd(), 'openapi.json');
  writeFileSync(target, await generateOpenApi());
  process.stdout.write(`wrote ${target}\n`);
}
