#!/usr/bin/env node
// The `relais` command: runs the built terminal client, found beside this file whatever the
// current folder is.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/daemon/daemon/src/terminal/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write(
    'relais: the daemon is not built yet; run `npm run build:daemon` (or `npm start`) in the Relais folder.\n',
  );
  process.exit(1);
}
await import(entry.href);
