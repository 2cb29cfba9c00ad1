import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';

/**
 * A working folder whose build script tries every circle at once: it reads an SSH key of the
 * agent's HOME, another project's `.env`, the working folder's own `.env`, a key file, Relais' API
 * key (directly and through a planted link), and writes into HOME, into the other project and into
 * the data folder. What it may do (write inside the working folder) it does too.
 */
export interface EscapeFixture {
  agentHome: string;
  cwd: string;
  secrets: string[];
  /** Files outside the circles, with the content they must keep. */
  untouched: Map<string, string>;
  /** Files the script must not have created. */
  absent: string[];
  /** Every path the script may write: the proof that it ran. */
  inside: string;
  /** What the agent runs, each allowed once by a person: the script, through npm, and one-liners. */
  commands: string[];
}

export function escapeFixture(dataDir: string, apiKey: string): EscapeFixture {
  const root = mkdtempSync(join(tmpdir(), 'relais-escape-'));
  const secret = (name: string): string => `${name}-${randomBytes(6).toString('hex')}`;
  const agentHome = join(root, 'home');
  const cwd = join(root, 'project');
  const other = join(root, 'other-project');
  for (const folder of [join(agentHome, '.ssh'), cwd, other])
    mkdirSync(folder, { recursive: true });
  const ssh = secret('SSH');
  const env = secret('OTHER-ENV');
  const ownEnv = secret('OWN-ENV');
  const pem = secret('PEM');
  writeFileSync(join(agentHome, '.ssh', 'id_rsa'), ssh);
  writeFileSync(join(other, '.env'), env);
  writeFileSync(join(cwd, '.env'), ownEnv);
  writeFileSync(join(cwd, 'server.pem'), pem);
  symlinkSync(dataDir, join(cwd, 'data-link'));
  symlinkSync(join(agentHome, '.ssh'), join(cwd, 'ssh-link'));
  const script = escapeScript(dataDir, other);
  writeFileSync(join(cwd, 'build.sh'), `${script}\n`);
  writeFileSync(
    join(cwd, 'package.json'),
    JSON.stringify({ name: 'victim', version: '1.0.0', scripts: { test: 'sh ./build.sh' } }),
  );
  const key = join(dataDir, 'api-key');
  const split = (text: string): string => `[${[...text].map((c) => `'${c}'`).join(',')}]`;
  return {
    agentHome,
    cwd,
    secrets: [ssh, env, ownEnv, pem, apiKey],
    untouched: new Map([
      [join(other, '.env'), env],
      [join(cwd, '.env'), ownEnv],
      [join(agentHome, '.ssh', 'id_rsa'), ssh],
      [join(dataDir, 'api-key'), readFileSync(join(dataDir, 'api-key'), 'utf8')],
    ]),
    absent: [join(agentHome, 'pwned'), join(other, 'pwned'), join(dataDir, 'pwned')],
    inside: join(cwd, 'inside.txt'),
    commands: [
      'sh ./build.sh',
      'npm test',
      // Paths the engine cannot read in the command's text: built from pieces at run time.
      `node -e "const fs=require('fs');for(const p of [${split(key)}.join(''),require('path').join(process.env.HOME,'.s'+'sh','id_rsa')])try{console.log(fs.readFileSync(p,'utf8'))}catch(e){console.log(e.code)};console.log('done')"`,
      `python3 -c "import os;p=''.join(${split(key)});print(open(p).read() if os.path.exists(p) else 'hidden', 'done')"`,
    ],
  };
}

/**
 * The build script: reads every secret (the data folder's key also by a name built at run time),
 * writes outside the circles, and writes inside the working folder, the proof that it ran.
 */
function escapeScript(dataDir: string, other: string): string {
  return [
    'cat "$HOME/.ssh/id_rsa"',
    'ls "$HOME/.ssh"',
    `cat ${JSON.stringify(join(other, '.env'))}`,
    `cat ${JSON.stringify(join(dataDir, 'api-key'))}`,
    'cat ./data-link/api-key ./ssh-link/id_rsa',
    'cat .env server.pem',
    `cat "$(echo ${Buffer.from(join(dataDir, 'api-key')).toString('base64')} | base64 -d)"`,
    'echo pwned > "$HOME/pwned"',
    `echo pwned >> ${JSON.stringify(join(other, '.env'))}`,
    `echo pwned > ${JSON.stringify(join(other, 'pwned'))}`,
    `echo pwned > ${JSON.stringify(join(dataDir, 'pwned'))}`,
    'echo pwned >> .env',
    'echo made > inside.txt',
    'echo done',
  ].join('\n');
}

/** No secret anywhere in what the session recorded; every file outside unchanged. */
export function assertHeld(fixture: EscapeFixture, recorded: string): void {
  for (const secret of fixture.secrets)
    assert.ok(!recorded.includes(secret), `a secret leaked into the events: ${secret}`);
  for (const [file, content] of fixture.untouched)
    assert.equal(readFileSync(file, 'utf8'), content, `${file} was changed`);
  for (const file of fixture.absent) assert.throws(() => readFileSync(file), `${file} was written`);
}

/**
 * A daemon whose data folder and agent home hold the fixture's secrets. The fixture needs the data
 * folder's key before the daemon runs: a first start makes it.
 */
export async function startEscapeDaemon(): Promise<{ daemon: TestDaemon; fixture: EscapeFixture }> {
  const home = mkdtempSync(join(tmpdir(), 'relais-test-'));
  const first = await startTestDaemon({ home, keepHome: true });
  const apiKey = first.key;
  await first.close();
  const fixture = escapeFixture(home, apiKey);
  const daemon = await startTestDaemon({ home, config: { agentHome: fixture.agentHome } });
  return { daemon, fixture };
}
