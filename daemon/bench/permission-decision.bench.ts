// Permission decision benchmark: latency of decide() for mixed tool requests (file tools and bash,
// inside and outside the trusted folder, matching rules and not) with the default rules, on a real
// temporary tree with links and hard links. Target: p99 < 0.5 ms.
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
tree.remove();
