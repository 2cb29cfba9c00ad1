import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestDaemon, type TestDaemon } from './harness.js';

export interface ClaudeHistorySetup {
  daemon: TestDaemon;
  configDir: string;
  /** A project folder of the subscription's transcripts, where a test writes `<uuid>.jsonl`. */
  project: string;
  subscription: string;
}

/** A daemon (no watcher: imports run when asked) with a Claude subscription of an empty config folder. */
export async function claudeHistorySetup(): Promise<ClaudeHistorySetup> {
  const daemon = await startTestDaemon({ config: { historyWatch: false } });
  const configDir = mkdtempSync(join(tmpdir(), 'relais-claude-config-'));
  const project = join(configDir, 'projects', '-home-me-project');
  mkdirSync(project, { recursive: true });
  const created = await daemon.call('POST', '/api/subscriptions', {
    name: 'Work',
    agent: 'claude',
    config_dir: configDir,
  });
  assert.equal(created.status, 201, created.text);
  return { daemon, configDir, project, subscription: created.body.id };
}
