import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Relais' own version, from the root package.json. */
export function relaisVersion(): string {
  try {
    const path = require.resolve('../../../../package.json');
    return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0'; // Run from an unusual layout: the version is informative only.
  }
}
