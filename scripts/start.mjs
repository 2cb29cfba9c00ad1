// `npm start`: builds what is missing or out of date, then runs the daemon in the foreground.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Runs a build command (asynchronously, so the progress ticker keeps ticking); exits if it fails. */
function run(command, args) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? done() : process.exit(code ?? 1)));
  });
}

// Built per locale (en/, fr/): the English build stands for both.
const consoleIndex = join(root, 'dist/console/browser/en/index.html');
const consoleSources = Math.max(
  newestMtime(join(root, 'src')),
  newestMtime(join(root, 'contract')),
);
/** Runs one build step, saying what it builds, how long it usually takes, and how long it took. */
async function step(what, usually, command, args) {
  console.log(`Building ${what} (${usually})…`);
  const started = Date.now();
  const ticker = setInterval(
    () => console.log(`  still building ${what}: ${Math.round((Date.now() - started) / 1000)} s`),
    15_000,
  );
  try {
    await run(command, args);
  } finally {
    clearInterval(ticker);
  }
  console.log(`Built ${what} in ${Math.round((Date.now() - started) / 1000)} s.`);
}

if (!existsSync(consoleIndex) || statSync(consoleIndex).mtimeMs < consoleSources) {
  await step('the console', 'the first time takes about a minute', 'npx', ['ng', 'build']);
  await step('its brotli and gzip twins', 'a few seconds', process.execPath, [
    join(root, 'scripts/precompress.mjs'),
  ]);
}
await step('the daemon', 'a few seconds', 'npx', ['tsc', '-p', 'daemon/tsconfig.json']);

const daemon = spawn(process.execPath, [join(root, 'dist/daemon/daemon/src/main.js')], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => daemon.kill(signal));
daemon.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
