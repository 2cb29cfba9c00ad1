import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { onPath } from './detect.js';
import { expandBraces, maskedLaunchScript, shQuote } from './name-masks.js';

describe('protected names found by find, as bubblewrap starts', () => {
  it('expands the alternatives find -name would read literally', () => {
    assert.deepEqual(expandBraces('*.{pem,key}'), ['*.pem', '*.key']);
    assert.deepEqual(expandBraces('{a,b{c,d}}.x'), ['a.x', 'bc.x', 'bd.x']);
    assert.deepEqual(expandBraces('{x}.pem'), ['{x}.pem']);
    assert.deepEqual(expandBraces('.env'), ['.env']);
  });

  it('quotes any word for sh', () => {
    const word = `a'b "c" $HOME \`x\` \\ \n`;
    const echoed = spawnSync('/bin/sh', ['-c', `printf %s ${shQuote(word)}`], { encoding: 'utf8' });
    assert.equal(echoed.stdout, word);
  });

  const bwrap = onPath('bwrap', process.env);
  const find = onPath('find', process.env);
  it(
    'masks odd names at any depth, leaves links and other files, keeps stdin and the exit status',
    {
      skip: !bwrap || !find,
    },
    () => {
      const root = mkdtempSync(join(tmpdir(), 'relais-names-'));
      const odd = join(root, `we'ird\n "$x" dir`);
      mkdirSync(join(odd, 'certs.key'), { recursive: true });
      writeFileSync(join(odd, 'certs.key', 'inside'), 'FOLDER-SECRET');
      writeFileSync(join(odd, `-rf *.pem`), 'PEM-SECRET');
      writeFileSync(join(root, '.env'), 'ENV-SECRET');
      writeFileSync(join(root, 'plain.txt'), 'PLAIN');
      symlinkSync(join(root, 'plain.txt'), join(root, 'link.pem'));
      const script = maskedLaunchScript({
        find: find!,
        roots: [root],
        names: ['.env', '*.{pem,key}'],
        bwrap: bwrap!,
        before: ['--dev-bind', '/', '/'],
        command: '"$@"',
      });
      const reader =
        'cat; cat .env; cat */certs.key/inside */*.pem; cat link.pem plain.txt; exit 7';
      const run = spawnSync('/bin/sh', ['-c', script, 'launch', '/bin/sh', '-c', reader], {
        cwd: root,
        input: 'FROM-STDIN\n',
        encoding: 'utf8',
      });
      assert.equal(run.status, 7);
      assert.equal(run.stdout, 'FROM-STDIN\nPLAINPLAIN');
      assert.doesNotMatch(run.stdout, /SECRET/);
    },
  );
});
