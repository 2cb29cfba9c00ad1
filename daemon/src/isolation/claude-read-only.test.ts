import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { claudeEnv, findClaudeBinary } from '../../../fakes/demo-model/claude-cli.js';
import { startDemoModel, type DemoModel } from '../../../fakes/demo-model/server.js';
import { DEFAULT_RULES } from '../permissions/engine/index.js';
import { sessionCircles } from './circles.js';
import { claudeSandboxSettings } from './claude-sandbox.js';

const run = promisify(execFile);

/**
 * The kernel as the second wall of a read-only session: the engine refuses every command there, so
 * this runs the pinned Claude Code directly with Bash allowed by its own flag (what a wrong "allow"
 * would amount to) and the sandbox settings Relais passes in read-only mode.
 */
describe(
  'Claude in read-only mode: a command that got through writes nothing',
  { timeout: 120_000 },
  () => {
    let model: DemoModel;
    before(async () => {
      model = await startDemoModel({ delayScale: 0 });
    });
    after(async () => {
      await model.close();
    });

    /** Runs one command through the demo model in a fresh session of `mode`; the folders it used. */
    async function runIn(mode: 'write' | 'read_only'): Promise<{ cwd: string; temp: string }> {
      const root = mkdtempSync(join(tmpdir(), 'relais-ro-'));
      const [cwd, temp, config, data] = ['work', 'tmp', 'config', 'data'].map((name) => {
        const folder = join(root, name);
        mkdirSync(folder, { mode: 0o700 });
        return folder;
      }) as [string, string, string, string];
      const circles = sessionCircles({
        rules: DEFAULT_RULES,
        dataDir: data,
        homeDir: config,
        agentHomeDir: config,
        cwd,
        permissionMode: mode,
        tempDir: temp,
      });
      const command = `touch ${join(cwd, 'made')}; touch ${join(temp, 'made')}; echo finished`;
      const args = [
        '-p',
        `demo:bash ${command}`,
        '--model',
        'demo-sonnet',
        '--allowedTools',
        'Bash',
      ];
      args.push('--settings', JSON.stringify(claudeSandboxSettings(circles)));
      await run(findClaudeBinary(), args, {
        cwd,
        env: { ...claudeEnv(model.url, config), TMPDIR: temp, CLAUDE_CODE_TMPDIR: temp },
        timeout: 90_000,
      });
      return { cwd, temp };
    }

    it('write mode (the control): the command writes in its working folder', async () => {
      const { cwd } = await runIn('write');
      assert.equal(existsSync(join(cwd, 'made')), true);
    });

    it('read-only mode: neither the working folder nor the temporary folder is written', async () => {
      const { cwd, temp } = await runIn('read_only');
      assert.equal(existsSync(join(cwd, 'made')), false, 'the working folder was written');
      assert.equal(existsSync(join(temp, 'made')), false, 'the temporary folder was written');
    });
  },
);
