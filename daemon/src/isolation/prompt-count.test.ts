import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { decide, DEFAULT_RULES } from '../permissions/engine/index.js';
import { SESSION } from './realistic-session.js';

describe('prompts per 100 commands of a realistic session', () => {
  it('with "run confined commands without asking", only the rules ask', () => {
    assert.equal(SESSION.length, 100);
    const root = mkdtempSync(join(tmpdir(), 'relais-count-'));
    const cwd = join(root, 'project');
    mkdirSync(join(cwd, 'src'), { recursive: true });
    writeFileSync(join(cwd, 'package.json'), '{}');
    const ctx = {
      rules: DEFAULT_RULES,
      dataDir: join(root, 'data'),
      homeDir: join(root, 'home'),
      agentHomeDir: join(root, 'home'),
    };
    const decisions = SESSION.map((command) =>
      decide({ tool_name: 'Bash', input: { command }, cwd, permission_mode: 'write' }, ctx),
    );
    const asked = decisions.filter((d) => d.decision === 'ask');
    // The broker's choice: only "no rule decided" is allowed without asking.
    const stillAsked = asked.filter((d) => d.step !== 'default');
    console.log(
      `prompts per 100 commands: ${asked.length} without the choice, ${stillAsked.length} with it (${stillAsked.map((d) => d.rule).join(', ')})`,
    );
    assert.ok(stillAsked.length < asked.length);
    assert.ok(
      stillAsked.some((d) => d.rule === 'git-push'),
      'git push still asks',
    );
  });
});
