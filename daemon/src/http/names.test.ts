import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hiddenCharacter } from '../../../contract/names.js';
import { rawRequest, startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { workdir } from '../testing/fixtures.js';

/** Names that read differently from what they hold. */
const HOSTILE = [
  'a\u0000b',
  'bell\u0007',
  '\u001b[31mred',
  'tab\there',
  'del\u007f',
  'c1\u0085',
  'csi\u009b',
  'lone \ud800 high',
  'lone \udfff low',
  'end\ud83d',
  '\u202egnp.exe',
  'iso\u2066late',
  'line\u2028sep',
  'mark\u200f',
];

describe(
  'names hold no control, surrogate or text-direction character',
  { timeout: 60_000 },
  () => {
    let daemon: TestDaemon;
    let configDir: string;
    let subscriptionId: string;

    before(async () => {
      daemon = await startTestDaemon();
      configDir = mkdtempSync(join(tmpdir(), 'relais-names-'));
      const created = await daemon.call('POST', '/api/subscriptions', {
        name: 'Émile’s work 😀',
        config_dir: configDir,
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.name, 'Émile’s work 😀', 'ordinary Unicode stays');
      subscriptionId = created.body.id;
    });
    after(async () => {
      await daemon.close();
    });

    const refused = (answer: { status: number; body: any; text: string }, what: string): void => {
      assert.equal(answer.status, 400, `${what}: ${answer.status} ${answer.text}`);
      assert.equal(answer.body.error_code, 'invalid_request', what);
      assert.match(answer.body.message, /U\+[0-9A-F]{4}/, what);
    };

    it('the helper names the first such character', () => {
      assert.equal(hiddenCharacter('a\u0000b'), 'U+0000 at position 1');
      assert.equal(hiddenCharacter('ok 😀'), null);
      for (const name of HOSTILE)
        assert.notEqual(hiddenCharacter(name), null, JSON.stringify(name));
    });

    it('subscription names: create and rename', async () => {
      for (const name of HOSTILE) {
        const what = JSON.stringify(name);
        refused(
          await daemon.call('POST', '/api/subscriptions', { name, config_dir: configDir }),
          what,
        );
        refused(await daemon.call('PATCH', `/api/subscriptions/${subscriptionId}`, { name }), what);
      }
      const list = (await daemon.call('GET', '/api/subscriptions')).body.items as {
        name: string;
      }[];
      for (const s of list) assert.equal(hiddenCharacter(s.name), null, s.name);
    });

    it('launch: app and model in the body, app in X-Relais-App', async () => {
      const cwd = workdir();
      const body = { subscription_id: 'demo', model: 'demo-sonnet', cwd };
      for (const name of HOSTILE) {
        const what = JSON.stringify(name);
        refused(await daemon.call('POST', '/api/sessions', { ...body, app: name }), `app ${what}`);
        refused(
          await daemon.call('POST', '/api/sessions', { ...body, model: name }),
          `model ${what}`,
        );
      }
      // A header can carry C1 controls (bytes 0x80-0x9f); Node's parser refuses C0 ones itself.
      for (const header of ['tool\u0085', '\u009bname', 'ok\u0080']) {
        const answer = await rawRequest(
          daemon.base,
          'POST',
          '/api/sessions',
          Buffer.from(JSON.stringify(body)),
          {
            authorization: `Bearer ${daemon.key}`,
            'content-type': 'application/json',
            'x-relais-app': header,
          },
        );
        refused(answer, `header ${JSON.stringify(header)}`);
      }
      const sessions = (await daemon.call('GET', '/api/sessions')).body.items as unknown[];
      assert.equal(sessions.length, 0, 'a refused launch left a session');
    });

    it('rule ids, and the app that saved the rules', async () => {
      const current = (await daemon.call('GET', '/api/rules')).body as { rules: unknown[] };
      const rule = {
        id: 'bad\u0000id',
        kind: 'bash',
        pattern: '^x$',
        action: 'deny',
        reason: 'test',
      };
      const answer = await daemon.call('PUT', '/api/rules', { rules: [...current.rules, rule] });
      assert.equal(answer.status, 400, answer.text);
      const header = await rawRequest(
        daemon.base,
        'PUT',
        '/api/rules',
        JSON.stringify({ rules: current.rules }),
        {
          authorization: `Bearer ${daemon.key}`,
          'content-type': 'application/json',
          'x-relais-app': 'console\u0085',
        },
      );
      refused(header, 'header on PUT /api/rules');
    });
  },
);
