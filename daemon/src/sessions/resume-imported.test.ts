import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Session } from '../../../contract/api.js';
import { claudeHistorySetup } from '../testing/claude-history.js';
import type { TestDaemon } from '../testing/harness.js';
import { claudeLines } from '../testing/transcripts.js';
import { workdir } from '../testing/fixtures.js';

const GOOD = 'dddddddd-4444-4444-8444-444444444444';

describe('resuming an imported conversation trusts nothing of its transcript', () => {
  let daemon: TestDaemon;
  let project: string;
  let subscription: string;
  before(async () => {
    ({ daemon, project, subscription } = await claudeHistorySetup());
  });
  after(async () => {
    await daemon.close();
  });

  /** Plants one transcript, imports it, and returns the imported session it became. */
  async function plant(file: string, sessionId: string, cwd: string, model?: string) {
    const lines = claudeLines({
      sessionId,
      cwd,
      startMs: Date.parse('2026-06-01T09:00:00Z'),
      turns: 1,
      idPrefix: file.slice(0, 8),
      ...(model ? { model } : {}),
    });
    writeFileSync(join(project, `${file}.jsonl`), lines.join('\n') + '\n');
    const report = await daemon.call('POST', `/api/subscriptions/${subscription}/import`);
    assert.equal(report.status, 200, report.text);
    const list = await daemon.call<{ items: Session[] }>(
      'GET',
      `/api/sessions?origin=imported&subscription=${subscription}`,
    );
    const found = list.body.items.find((s) => s.agent_session_id === sessionId);
    assert.ok(found, `imported ${sessionId}`);
    return found;
  }

  it('an id that is not a UUID never reaches --resume: 422', async () => {
    const cwd = workdir();
    for (const [file, forged] of [
      ['forged-1', '../../../../tmp/forged'],
      ['forged-2', '--dangerously-skip-permissions'],
      ['forged-3', `${GOOD} extra`],
      ['forged-4', `${GOOD}\n`],
    ] as const) {
      const session = await plant(file, forged, cwd);
      const answer = await daemon.call('POST', `/api/sessions/${session.id}/resume`, {
        prompt: 'go on',
      });
      assert.equal(answer.status, 422, answer.text);
      assert.equal(answer.body.error_code, 'invalid_conversation_id');
    }
  });

  it("a transcript's model off the model-name rule is not used; a folder that is a file is refused", async () => {
    const cwd = workdir();
    const session = await plant(GOOD, GOOD, cwd, 'sonnet\u0000--x');
    const noModel = await daemon.call('POST', `/api/sessions/${session.id}/resume`, {});
    assert.equal(noModel.status, 400, noModel.text);
    assert.match(noModel.body.message, /choose one/);
    const file = join(cwd, 'a-file');
    writeFileSync(file, '');
    const notFolder = await daemon.call('POST', `/api/sessions/${session.id}/resume`, {
      model: 'demo-sonnet',
      cwd: file,
    });
    assert.equal(notFolder.status, 400, notFolder.text);
    assert.equal(notFolder.body.error_code, 'invalid_cwd');
  });
});
