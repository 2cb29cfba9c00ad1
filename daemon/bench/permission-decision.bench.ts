// Permission decision benchmark: latency of decide() for mixed tool requests (file tools and bash,
// inside and outside the trusted folder, matching rules and not) with the default rules, on a real
// temporary tree with links and hard links; then adversarial inputs up to 1 MB (quadratic-regex bait,
// deep nesting, long words, many globs, many wrappers), each decided in its own turn of the event
// loop while monitorEventLoopDelay watches. Targets: p99 < 0.5 ms (mixed), < 20 ms (any input),
// event loop never blocked > 50 ms.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  DEFAULT_RULES,
  decide,
  type EngineContext,
  type ToolRequest,
} from '../src/permissions/engine/index.js';
import { makeFixtureTree } from '../src/permissions/engine/fixture-tree.js';

const TOTAL = Number(process.env['BENCH_REQUESTS'] ?? 100_000);
const WARMUP = 2_000;

const tree = makeFixtureTree('relais-bench-permissions-');
const ctx: EngineContext = { rules: DEFAULT_RULES, dataDir: tree.data, homeDir: tree.home };

const file = (tool: string, filePath: string): [string, Record<string, unknown>] => [
  tool,
  { file_path: filePath, content: 'x', old_string: 'a', new_string: 'b' },
];
const bash = (command: string): [string, Record<string, unknown>] => [
  'Bash',
  { command, description: 'bench' },
];

const MIX: [string, Record<string, unknown>][] = [
  file('Read', 'src/a.ts'),
  file('Read', `${tree.proj}/README.md`),
  file('Read', '.env'),
  file('Read', 'keys/server.pem'),
  file('Read', '../outside/secret.txt'),
  file('Read', 'link-out'),
  file('Read', 'chain-in1'),
  file('Read', 'link-in-dir/../README.md'),
  file('Read', `${tree.data}/key`),
  file('Write', 'src/new-file.ts'),
  file('Write', 'dangling-out'),
  file('Write', 'hard.txt'),
  file('Edit', 'src/a.ts'),
  file('Edit', '../proj-evil/x.txt'),
  ['Glob', { pattern: 'src/**/*.ts' }],
  ['Grep', { pattern: 'TODO', path: 'src' }],
  ['Grep', { pattern: 'TODO', path: '../outside' }],
  ['LS', { path: tree.proj }],
  bash('npm test'),
  bash('git status && git diff --stat'),
  bash('cat src/a.ts | grep export > /dev/null 2>&1'),
  bash('rm -rf build'),
  bash('git push --force origin main'),
  bash('git push --force-with-lease origin main'),
  bash('git reset --hard origin/main'),
  bash('cat .env'),
  bash('cat ../outside/secret.txt'),
  bash('echo done > ../outside/log'),
  bash('cp src/a.ts src/b.ts && mv src/b.ts src/c.ts'),
  bash('cd src && ls -la ../keys'),
  bash('sqlite3 app.db "DELETE FROM users WHERE id = 1"'),
  bash('psql -c "DROP TABLE users"'),
  bash('echo $(git rev-parse HEAD) > build/version.txt'),
  bash('find . -name "*.tmp" -delete'),
  bash("sed -i 's/a/b/' src/a.ts"),
  bash('npm publish'),
];

const requests: ToolRequest[] = MIX.map(([tool_name, input]) => ({
  tool_name,
  input,
  cwd: tree.proj,
  permission_mode: 'write',
}));

for (let i = 0; i < WARMUP; i++) decide(requests[i % requests.length]!, ctx);

const latencies = new Float64Array(TOTAL);
const verdicts = new Map<string, number>();
const started = process.hrtime.bigint();
for (let i = 0; i < TOTAL; i++) {
  const t0 = process.hrtime.bigint();
  const d = decide(requests[i % requests.length]!, ctx);
  latencies[i] = Number(process.hrtime.bigint() - t0) / 1e6;
  const key = `${d.decision}/${d.step}`;
  verdicts.set(key, (verdicts.get(key) ?? 0) + 1);
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;

latencies.sort();
const at = (q: number): number => latencies[Math.min(TOTAL - 1, Math.floor(q * TOTAL))]!;
const ms = (v: number): string => `${v.toFixed(4)} ms`;
console.log(
  `permission-decision: ${TOTAL} requests (${requests.length} kinds, default rules, real temp tree), ${WARMUP} warm-up excluded`,
);
console.log(
  `permission-decision: p50 ${ms(at(0.5))}, p90 ${ms(at(0.9))}, p99 ${ms(at(0.99))}, max ${ms(latencies[TOTAL - 1]!)}`,
);
console.log(
  `permission-decision: ${Math.round(TOTAL / seconds).toLocaleString('en-US')} decisions/s (${seconds.toFixed(2)} s in all)`,
);
console.log(
  `permission-decision: verdicts ${[...verdicts].map(([k, n]) => `${k}=${n}`).join(', ')}`,
);
console.log(`permission-decision: p99 target < 0.5 ms: ${at(0.99) < 0.5 ? 'met' : 'MISSED'}`);

const SIZES = [1_024, 16_384, 65_536, 1_048_576];
const repeatTo = (unit: string, size: number): string => unit.repeat(Math.ceil(size / unit.length));
const ADVERSARIAL: [string, (size: number) => [string, Record<string, unknown>]][] = [
  ['rm -rrr…r! (quadratic bait of the old rm rule)', (n) => bash(`rm -${repeatTo('r', n)}!`)],
  ['git a a a … push (.* bait)', (n) => bash(`git ${repeatTo('a ', n)}push`)],
  ['DELETE FROM t x x x …', (n) => bash(`psql -c "DELETE FROM t ${repeatTo('x ', n)}"`)],
  ['DROP/**/…TABLE', (n) => bash(`psql -c "DROP${repeatTo('/**/', n)}TABLE t"`)],
  ['$( nested', (n) => bash(`echo ${repeatTo('$(', n / 2)}x${repeatTo(')', n / 2)}`)],
  ['"$( unclosed', (n) => bash(`echo ${repeatTo('"$(', n)}`)],
  ['( ( ( subshells', (n) => bash(`${repeatTo('(', n / 2)}ls${repeatTo(')', n / 2)}`)],
  ['backticks', (n) => bash(`echo ${repeatTo('`echo `', n)}`)],
  ['one long word', (n) => bash(`ls ${repeatTo('a', n)}`)],
  ['many short words', (n) => bash(`ls ${repeatTo('a ', n)}`)],
  ['many glob words', (n) => bash(`ls ${repeatTo('*.ts ', n)}`)],
  ['many wrappers', (n) => bash(`${repeatTo('env ', n)}rm -rf build`)],
  ['many commands', (n) => bash(repeatTo('true;', n))],
  ['a long path (Read)', (n) => file('Read', repeatTo('a/', n))],
  ['many Grep globs', (n) => ['Grep', { pattern: 'x', glob: repeatTo('*.ts ', n) }]],
  ['a long Glob pattern', (n) => ['Glob', { pattern: repeatTo('**/a', n) }]],
];

interface Worst {
  name: string;
  size: number;
  ms: number;
  verdict: string;
}

async function adversarial(): Promise<void> {
  const cases = ADVERSARIAL.flatMap(([name, make]) =>
    SIZES.map((size) => {
      const [tool_name, input] = make(size);
      const request: ToolRequest = { tool_name, input, cwd: tree.proj, permission_mode: 'write' };
      return { name, size, request };
    }),
  );
  const ROUNDS = 5;
  const times: number[] = [];
  const worst = new Map<string, Worst>();
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of cases) {
      await nextTurn();
      const t0 = process.hrtime.bigint();
      const d = decide(c.request, ctx);
      const took = Number(process.hrtime.bigint() - t0) / 1e6;
      times.push(took);
      const key = `${c.name} @ ${c.size}`;
      const seen = worst.get(key);
      if (seen === undefined || took > seen.ms)
        worst.set(key, {
          name: c.name,
          size: c.size,
          ms: took,
          verdict: `${d.decision}/${d.step}`,
        });
    }
  }
  await nextTurn();
  loop.disable();
  times.sort((a, b) => a - b);
  const q = (p: number): number => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  console.log(
    `permission-decision (adversarial): ${cases.length} inputs (${ADVERSARIAL.length} kinds × sizes ${SIZES.join(', ')} chars) × ${ROUNDS} rounds`,
  );
  console.log(
    `permission-decision (adversarial): p50 ${ms(q(0.5))}, p99 ${ms(q(0.99))}, max ${ms(times[times.length - 1]!)}`,
  );
  const slowest = [...worst.values()].sort((a, b) => b.ms - a.ms).slice(0, 6);
  for (const w of slowest)
    console.log(
      `permission-decision (adversarial): slowest ${w.name} @ ${w.size}: ${ms(w.ms)} → ${w.verdict}`,
    );
  const blocked = loop.max / 1e6;
  console.log(
    `permission-decision (adversarial): longest event-loop block ${blocked.toFixed(1)} ms`,
  );
  console.log(
    `permission-decision (adversarial): any input < 20 ms: ${times[times.length - 1]! < 20 ? 'met' : 'MISSED'}; event loop < 50 ms: ${blocked < 50 ? 'met' : 'MISSED'}`,
  );
}

await adversarial();
tree.remove();
