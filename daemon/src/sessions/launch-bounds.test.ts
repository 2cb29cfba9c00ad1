import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Session } from '../../../contract/api.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';

const MAX_TTL = 120;

describe('launch bounds: the deadline and the working folder', { timeout: 120_000 }, () => {
  let daemon: TestDaemon;
  let scratch: string;

  before(async () => {
    daemon = await startTestDaemon({ config: { maxTtlSeconds: MAX_TTL } });
    scratch = mkdtempSync(join(tmpdir(), 'relais-bounds-'));
  });
  after(async () => {
    await daemon.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const launch = (body: Record<string, unknown>) =>
    daemon.call('POST', '/api/sessions', {
      subscription_id: 'demo',
      model: 'demo-sonnet',
      cwd: scratch,
      ...body,
    });

  const stop = async (session: Session): Promise<void> => {
    await daemon.call('POST', `/api/sessions/${session.id}/stop`);
    await new SessionDriver(daemon, session.id).waitState('ended');
  };

  const secondsBetween = (from: string, to: string): number =>
    Math.round((Date.parse(to) - Date.parse(from)) / 1000);

  it('ttl_seconds above RELAIS_MAX_TTL_SECONDS is refused with the bound', async () => {
    for (const ttl of [MAX_TTL + 1, 7 * 24 * 3600]) {
      const answer = await launch({ ttl_seconds: ttl });
      assert.equal(answer.status, 400, `ttl ${ttl}: ${answer.text}`);
      assert.equal(answer.body.error_code, 'invalid_request');
      assert.match(answer.body.message, new RegExp(`maximum of ${MAX_TTL}`));
      assert.equal(answer.body.max_ttl_seconds, MAX_TTL);
    }
    const sessions = (await daemon.call('GET', '/api/sessions')).body.items as Session[];
    assert.equal(sessions.length, 0, 'a refused launch left a session');
  });

  it('ttl_seconds at the bound is kept, and the maximum deadline is the bound', async () => {
    const answer = await launch({ ttl_seconds: MAX_TTL });
    assert.equal(answer.status, 201, answer.text);
    const session = answer.body as Session;
    assert.equal(secondsBetween(session.created_at, session.deadline_at), MAX_TTL);
    assert.equal(secondsBetween(session.created_at, session.max_deadline_at), MAX_TTL);
    const beat = await daemon.call<Session>('POST', `/api/sessions/${session.id}/heartbeat`, {
      extend_seconds: MAX_TTL * 10,
    });
    assert.equal(beat.status, 200);
    assert.equal(beat.body.deadline_at, session.max_deadline_at, 'a heartbeat never passes it');
    await stop(session);
  });

  it('no ttl_seconds: an hour, or the maximum when it is shorter', async () => {
    const answer = await launch({});
    assert.equal(answer.status, 201, answer.text);
    const session = answer.body as Session;
    assert.equal(secondsBetween(session.created_at, session.deadline_at), MAX_TTL);
    assert.equal(secondsBetween(session.created_at, session.max_deadline_at), MAX_TTL);
    await stop(session);
  });

  it('refuses the data folder, links to it, folders inside it, / and the system trees', async () => {
    const inside = join(daemon.home, 'subscriptions');
    mkdirSync(inside, { recursive: true });
    const link = join(scratch, 'home-link');
    symlinkSync(daemon.home, link);
    const insideLink = join(scratch, 'inside-link');
    symlinkSync(inside, insideLink);
    const rootLink = join(scratch, 'root-link');
    symlinkSync('/', rootLink);
    const procLink = join(scratch, 'proc-link');
    symlinkSync('/proc/self', procLink);
    const cases: [string, RegExp][] = [
      [daemon.home, /data folder/],
      [`${daemon.home}/`, /data folder/],
      [inside, /data folder/],
      [link, /data folder/],
      [insideLink, /data folder/],
      [`${scratch}/../${scratch.split('/').pop()}/home-link/subscriptions`, /data folder/],
      [`${inside}/..`, /data folder/],
      ['/', /root/],
      ['/tmp/..', /root/],
      [rootLink, /root/],
      ['/proc', /\/proc/],
      ['/proc/self', /\/proc/],
      [procLink, /\/proc/],
      ['/sys', /\/sys/],
      ['/sys/kernel', /\/sys/],
      ['/dev', /\/dev/],
      ['/dev/shm', /\/dev/],
    ];
    for (const [cwd, reason] of cases) {
      const answer = await launch({ cwd });
      assert.equal(answer.status, 400, `${cwd}: ${answer.text}`);
      assert.equal(answer.body.error_code, 'invalid_cwd', cwd);
      assert.match(answer.body.message, reason, cwd);
    }
  });

  it('still refuses a missing folder, a file and a relative path; accepts a plain folder', async () => {
    const file = join(scratch, 'file.txt');
    writeFileSync(file, 'x');
    for (const cwd of [join(scratch, 'missing'), file, 'relative/folder']) {
      const answer = await launch({ cwd });
      assert.equal(answer.status, 400, cwd);
      assert.equal(answer.body.error_code, 'invalid_cwd', cwd);
    }
    const project = join(scratch, 'project');
    mkdirSync(project);
    const fine = await launch({ cwd: project, ttl_seconds: 60 });
    assert.equal(fine.status, 201, fine.text);
    await stop(fine.body as Session);
  });
});
