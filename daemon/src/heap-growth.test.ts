import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// A process keeping 40 MB live while it promotes garbage (arrays held across many young
// collections, as an import's held events are): the largest heap it reaches, over the live size.
const CHURN = `
  const { limitHeapGrowth } = await import(process.argv[1]);
  if (process.argv[2] === 'limited') limitHeapGrowth();
  const live = Array.from({ length: 40 }, () => Array.from({ length: 131072 }, (_, i) => ({ i })).slice(0, 65536));
  globalThis.gc();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const held = [];
  for (let round = 0; round < 400; round++) {
    held.push(Array.from({ length: 20000 }, (_, i) => 'x' + round + ':' + i));
    if (held.length > 40) held.shift();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  process.stdout.write(String(peak / base) + ' ' + live.length);
`;

function peakOverLive(mode: 'limited' | 'default'): number {
  const module = fileURLToPath(new URL('./heap-growth.js', import.meta.url));
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--input-type=module', '-e', CHURN, module, mode],
    { encoding: 'utf8' },
  );
  return Number(out.split(' ')[0]);
}

describe('heap growth', () => {
  it('lets the heap grow to about twice its live size, not four times, before collecting', () => {
    const limited = peakOverLive('limited');
    const unlimited = peakOverLive('default');
    console.log(
      `peak heap over live: ${limited.toFixed(2)} limited, ${unlimited.toFixed(2)} by default`,
    );
    assert.ok(limited < 3.4, `peak ${limited.toFixed(2)} × live`);
  });
});
