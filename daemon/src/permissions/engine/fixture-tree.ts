import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A real temporary tree for the engine's tests and benchmark:
 *   <root>/proj          the session's cwd and trusted folder
 *   <root>/proj-evil     sibling whose name starts like the trusted folder
 *   <root>/outside       untrusted
 *   <root>/data          the daemon's data folder (with its key file)
 *   <root>/home          the home folder (.ssh, .aws)
 * with links inside, out, chained, relative, dangling, looping, and hard links.
 */
export interface FixtureTree {
  root: string;
  proj: string;
  evil: string;
  outside: string;
  data: string;
  home: string;
  remove(): void;
}

function write(file: string, content = 'x\n'): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

export function makeFixtureTree(prefix = 'relais-engine-'): FixtureTree {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const proj = path.join(root, 'proj');
  const evil = path.join(root, 'proj-evil');
  const outside = path.join(root, 'outside');
  const data = path.join(root, 'data');
  const home = path.join(root, 'home');
  const p = (rel: string): string => path.join(proj, rel);

  write(p('src/a.ts'), 'export const a = 1;\n');
  write(p('README.md'));
  write(p('.env'), 'TOKEN=secret\n');
  write(p('config/.env.local'), 'TOKEN=secret\n');
  write(p('.env.example'), 'TOKEN=\n');
  write(p('keys/server.pem'));
  write(p('keys/api.key'));
  write(p('PLAN.md'));
  write(p('justfile'));
  write(p('adws/adw_modules/runner.py'));
  write(p('adws/adw_data/sessions/s1.json'));
  write(p('specs/one.md'));
  write(p('hard-in-a.txt'));
  fs.mkdirSync(p('empty-dir'));
  write(path.join(evil, 'x.txt'));
  write(path.join(outside, 'secret.txt'), 'outside secret\n');
  write(path.join(data, 'key'), 'daemon key\n');
  write(path.join(home, '.ssh/id_rsa'));
  write(path.join(home, '.aws/credentials'));

  fs.symlinkSync('src/a.ts', p('link-in'));
  fs.symlinkSync('src', p('link-in-dir'));
  fs.symlinkSync('../outside/secret.txt', p('link-out'));
  fs.symlinkSync(outside, p('link-out-abs'));
  fs.symlinkSync('chain2', p('chain1'));
  fs.symlinkSync('../outside/secret.txt', p('chain2'));
  fs.symlinkSync('chain-in2', p('chain-in1'));
  fs.symlinkSync('src/a.ts', p('chain-in2'));
  fs.symlinkSync('../outside/new-file.txt', p('dangling-out'));
  fs.symlinkSync('src/not-yet.ts', p('dangling-in'));
  fs.symlinkSync('loop2', p('loop1'));
  fs.symlinkSync('loop1', p('loop2'));
  fs.symlinkSync('../data', p('data-link'));
  fs.symlinkSync('../proj-evil', p('evil-link'));
  fs.linkSync(path.join(outside, 'secret.txt'), p('hard.txt'));
  fs.linkSync(p('hard-in-a.txt'), p('hard-in-b.txt'));

  return {
    root,
    proj,
    evil,
    outside,
    data,
    home,
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
