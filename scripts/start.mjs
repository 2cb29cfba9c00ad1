// `npm start`: builds what is missing or out of date, then runs the daemon in the foreground.
import { spawn, spawnSync } from 'node:child_process';
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

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const consoleIndex = join(root, 'dist/console/browser/index.html');
const consoleSources = Math.max(
  newestMtime(join(root, 'src')),
  newestMtime(join(root, 'contract')),
);
if (!existsSync(consoleIndex) || statSync(consoleIndex).mtimeMs < consoleSources) {
  console.log('Building the console…');
  run('npx', ['ng', 'build']);
}
console.log('Building the daemon…');
run('npx', ['tsc', '-p', 'daemon/tsconfig.json']);

const daemon = spawn(process.execPath, [join(root, 'dist/daemon/daemon/src/main.js')], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => daemon.kill(signal));
daemon.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
