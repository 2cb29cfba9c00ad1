import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { build } from '../app.js';
import { configFromEnv } from '../config.js';
import { emptyAgentHome } from '../testing/harness.js';
import { LogSink } from './log-sink.js';

interface LogEntry {
  level: string;
  msg: string;
  data: Record<string, unknown>;
}

describe('the terminal stays quiet by default', () => {
  it('requests go to debug: kept for Diagnostics, not printed; warnings still printed', async () => {
    const home = mkdtempSync(join(tmpdir(), 'relais-quiet-'));
    const agentHome = emptyAgentHome();
    const printed: string[] = [];
    const sink = new LogSink(20_000, (line) => printed.push(line));
    const config = {
      ...configFromEnv({ RELAIS_HOME: home, RELAIS_AGENT_HOME: agentHome }),
      port: 0,
      consoleDir: null,
    };
    assert.equal(config.logLevel, 'warn', 'the default terminal level');
    const relais = await build(config, { logSink: sink });
    try {
      const base = await relais.listen();
      const auth = { authorization: `Bearer ${relais.apiKey}` };
      for (let i = 0; i < 5; i++)
        await (await fetch(`${base}/api/sessions`, { headers: auth })).text();
      relais.app.log.warn('a warning the person must see');
      await new Promise((done) => setTimeout(done, 50));
      sink.flush();

      assert.ok(!printed.some((line) => line.includes('request completed')), printed.join(''));
      assert.ok(!printed.some((line) => line.includes('incoming request')));
      assert.ok(printed.some((line) => line.includes('a warning the person must see')));

      const answer = await fetch(`${base}/api/logs?q=request%20completed&limit=50`, {
        headers: auth,
      });
      const kept = ((await answer.json()) as { items: LogEntry[] }).items;
      assert.ok(kept.length >= 5, `${kept.length} request lines kept`);
      assert.ok(kept.every((entry) => entry.level === 'debug'));
      const line = JSON.stringify(kept[0]!.data);
      assert.match(line, /"url":"\/api\/sessions"/);
      assert.match(line, /"statusCode":200/);
      assert.ok(!line.includes(relais.apiKey), 'the key is never logged');
    } finally {
      await relais.close();
      rmSync(home, { recursive: true, force: true });
      rmSync(agentHome, { recursive: true, force: true });
    }
  });
});
