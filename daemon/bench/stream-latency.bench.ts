// Latency from an agent's stdout line to a live-stream client: a child process prints JSON lines
// at a fixed rate; the agent's reader (ClaudeProcess, or CodexRpc with BENCH_AGENT=codex: JSON-RPC
// notifications) reads them, the EventStore appends them, and a client reads the session's NDJSON
// stream over HTTP. Each line carries its print time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClaudeProcess } from '../src/agents/claude/claude-process.js';
import type { SpawnSpec } from '../src/processes/spawn-agent.js';
import { CodexRpc } from '../src/agents/codex/codex-rpc.js';
import { insertSessionRow } from '../src/testing/fixtures.js';
import { startTestDaemon } from '../src/testing/harness.js';

const RATE = Number(process.env['BENCH_RATE'] ?? 1000);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const AGENT = process.env['BENCH_AGENT'] === 'codex' ? 'codex' : 'claude';
const now = (): number => performance.timeOrigin + performance.now();

const printer = `
const rate = ${RATE}, total = ${RATE * SECONDS};
let sent = 0; const start = performance.timeOrigin + performance.now();
const timer = setInterval(() => {
  const due = Math.min(total, Math.floor(((performance.timeOrigin + performance.now()) - start) * rate / 1000));
  while (sent < due) { sent++; process.stdout.write(JSON.stringify(${AGENT === 'codex' ? "{ method: 'bench/tick', params: { n: sent, t: performance.timeOrigin + performance.now() } }" : "{ type: 'bench', n: sent, t: performance.timeOrigin + performance.now() }"}) + '\\n'); }
  if (sent >= total) { clearInterval(timer); }
}, 1);
`;

const home = mkdtempSync(join(tmpdir(), 'relais-bench-latency-'));
const daemon = await startTestDaemon({ home });
// A running session: the stream of an ended one closes once it has sent what is stored.
const sessionId = insertSessionRow(daemon.relais.db, { state: 'working' });
const latencies: number[] = [];
const response = await fetch(`${daemon.base}/api/sessions/${sessionId}/stream?after=0`, {
  headers: { authorization: `Bearer ${daemon.key}` },
});
const reader = response.body!.getReader();
const decoder = new TextDecoder();
const total = RATE * SECONDS;
const reading = (async () => {
  let buffer = '';
  while (latencies.length < total) {
    const { value, done } = await reader.read();
    if (done) break;
    const received = now();
    buffer += decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const parsed = JSON.parse(buffer.slice(0, nl)) as {
        type: string;
        event?: { data: { t?: number; params?: { t?: number } } };
      };
      buffer = buffer.slice(nl + 1);
      const printed = parsed.event?.data.t ?? parsed.event?.data.params?.t;
      if (parsed.type === 'event' && typeof printed === 'number')
        latencies.push(received - printed);
    }
  }
})();

const spec: SpawnSpec = {
  binary: process.execPath,
  args: ['-e', printer],
  cwd: home,
  env: { PATH: process.env['PATH'] ?? '' },
};
await new Promise<void>((resolve) => {
  const onLine = (text: string, _parsed: unknown, at: number): void => {
    daemon.relais.events.append(sessionId, 'agent', text, at);
  };
  if (AGENT === 'codex') new CodexRpc(spec, { onLine, onExit: () => resolve() });
  else
    new ClaudeProcess(spec, {
      onLine,
      onControlRequest: () => undefined,
      onControlCancel: () => undefined,
      onExit: () => resolve(),
    });
});
await reading;
await reader.cancel();
latencies.sort((a, b) => a - b);
const pct = (p: number): string =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(2);
console.log(`stream latency (${AGENT}): ${latencies.length} events at ${RATE}/s for ${SECONDS} s`);
console.log(
  `stream latency: p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, max ${latencies[latencies.length - 1]!.toFixed(2)} ms`,
);
await daemon.close();
rmSync(home, { recursive: true, force: true });
