import type { PermissionRequest, Session, SessionEvent } from '../../../contract/api.js';
import { allEvents } from './all-events.js';
import { waitFor, type TestDaemon } from './harness.js';

/** Helpers that drive a session through the public API the way a client would. */
export class SessionDriver {
  constructor(
    readonly daemon: TestDaemon,
    readonly id: string,
  ) {}

  static async launch(daemon: TestDaemon, body: Record<string, unknown>): Promise<SessionDriver> {
    const answer = await daemon.call<Session>('POST', '/api/sessions', {
      subscription_id: 'demo',
      model: 'demo-sonnet',
      app: 'tests',
      ...body,
    });
    if (answer.status !== 201) throw new Error(`launch failed: ${answer.status} ${answer.text}`);
    return new SessionDriver(daemon, answer.body.id);
  }

  async session(): Promise<Session> {
    return (await this.daemon.call<Session>('GET', `/api/sessions/${this.id}`)).body;
  }

  async waitState(...states: Session['state'][]): Promise<Session> {
    return this.waitFor(`state ${states.join('|')}`, async () => {
      const s = await this.session();
      return states.includes(s.state) ? s : undefined;
    });
  }

  events(): Promise<SessionEvent[]> {
    return allEvents(this.daemon, this.id);
  }

  async agentLines(type: string): Promise<Record<string, any>[]> {
    return (await this.events())
      .filter((e) => e.source === 'agent')
      .map((e) => e.data as Record<string, any>)
      .filter((d) => d['type'] === type);
  }

  async waitResults(count: number): Promise<Record<string, any>[]> {
    return this.waitFor(`${count} result line(s)`, async () => {
      const results = await this.agentLines('result');
      return results.length >= count ? results : undefined;
    });
  }

  async pendingPermission(): Promise<PermissionRequest> {
    return this.waitFor('a pending permission', async () => {
      const list = (
        await this.daemon.call<{ items: PermissionRequest[] }>(
          'GET',
          `/api/permissions?state=pending&session=${this.id}`,
        )
      ).body;
      return list.items[0];
    });
  }

  async decide(permissionId: string, body: Record<string, unknown>): Promise<PermissionRequest> {
    const answer = await this.daemon.call<PermissionRequest>(
      'POST',
      `/api/permissions/${permissionId}/decision`,
      body,
    );
    if (answer.status !== 200) throw new Error(`decision failed: ${answer.status} ${answer.text}`);
    return answer.body;
  }

  /** `waitFor`, whose timeout also tells where the session stands (what CI logs keep). */
  async waitFor<T>(
    what: string,
    check: () => T | undefined | false | Promise<T | undefined | false>,
  ): Promise<T> {
    try {
      return await waitFor(what, check);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${await this.whereItStands()}`, {
        cause: error,
      });
    }
  }

  private async whereItStands(): Promise<string> {
    const session = await this.session();
    const tail = (await this.events()).slice(-8).map((e) => {
      const data = e.data as Record<string, any>;
      const kind = [data['type'], data['subtype'] ?? data['request']?.['subtype']].filter(Boolean);
      return `  #${e.seq} ${e.source} ${kind.join('/')}`;
    });
    return [`session ${this.id}: ${session.state}, pid ${session.pid}, last events:`, ...tail].join(
      '\n',
    );
  }

  /** Final assistant texts, in order. */
  async assistantTexts(): Promise<string[]> {
    return (await this.agentLines('assistant')).flatMap((line) =>
      (line['message']?.['content'] ?? [])
        .filter((b: any) => b.type === 'text')
        .map((b: any) => String(b.text)),
    );
  }
}
