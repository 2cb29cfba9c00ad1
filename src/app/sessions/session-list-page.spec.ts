import { signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { ImportProgress, Session } from '../../../contract/api';
import { ApiFailure } from '../core/api-error';
import { LiveStore } from '../core/live-store';
import { QuotasApi } from '../quotas/quotas-api';
import { SubscriptionsApi } from '../subscriptions/subscriptions-api';
import { sampleSession } from '../testing/sample-session';
import { SessionListPage } from './session-list-page';
import { SessionsApi } from './sessions-api';

const session = (id: string, state: Session['state'], app: string): Session =>
  sampleSession({
    id,
    app,
    state,
    created_at: new Date().toISOString(),
    deadline_at: new Date(Date.now() + 600_000).toISOString(),
    max_deadline_at: new Date(Date.now() + 3_600_000).toISOString(),
    pending_permissions: state === 'waiting' ? 1 : 0,
  });

const noQuotas = { items: [], next_cursor: null, stale_after_seconds: 600 };

/** A LiveStore stand-in: the page only reads these signals. */
class FakeLive {
  readonly loaded = signal(false);
  readonly error = signal<ApiFailure | null>(null);
  readonly sessions = signal<Session[]>([]);
  readonly imports = signal<ImportProgress[]>([]);
  reload = vi.fn();
  upsertSession = vi.fn();
}

describe('SessionListPage', () => {
  async function render() {
    const live = new FakeLive();
    TestBed.configureTestingModule({
      imports: [SessionListPage],
      providers: [
        { provide: LiveStore, useValue: live },
        { provide: SessionsApi, useValue: { list: vi.fn().mockResolvedValue([]) } },
        { provide: SubscriptionsApi, useValue: { list: vi.fn().mockResolvedValue([]) } },
        { provide: QuotasApi, useValue: { list: vi.fn().mockResolvedValue(noQuotas) } },
      ],
    });
    const fixture = TestBed.createComponent(SessionListPage);
    await fixture.whenStable();
    return { fixture, live, text: () => (fixture.nativeElement as HTMLElement).textContent ?? '' };
  }

  it('shows loading, then error, then empty, then data, live as the store changes', async () => {
    const { fixture, live, text } = await render();
    expect(text()).toContain('Loading sessions');
    live.loaded.set(true);
    live.error.set({
      status: 0,
      code: 'daemon_unreachable',
      message: 'The daemon does not answer.',
      retryAfterSeconds: null,
    });
    await fixture.whenStable();
    expect(text()).toContain('The daemon does not answer.');
    live.error.set(null);
    await fixture.whenStable();
    expect(text()).toContain('No sessions yet');
    live.sessions.set([
      session('ses_aaaaaaaa1', 'waiting', 'ci'),
      session('ses_bbbbbbbb2', 'idle', 'console'),
    ]);
    await fixture.whenStable();
    const rows = (fixture.nativeElement as HTMLElement).querySelectorAll('tbody tr');
    expect(rows.length).toBe(2);
    expect(rows[0]?.textContent).toContain('1 waiting');
    expect(rows[0]?.textContent).toContain('ci');
  });

  it('marks imported conversations, with their start date and transcript size, and shows an import under way', async () => {
    const { fixture, live, text } = await render();
    live.loaded.set(true);
    live.sessions.set([
      {
        ...session('ses_cccccccc3', 'ended', 'imported'),
        origin: 'imported',
        created_at: '2026-03-04T10:20:00.000Z',
        transcript_bytes: 2048,
      },
    ]);
    live.imports.set([
      {
        subscription_id: 'work',
        state: 'running',
        files_total: 10,
        files_done: 4,
        bytes_total: 4096,
        bytes_done: 1024,
        bytes_per_second: 512,
        turns: 7,
        errors: 0,
        started_at: '2026-12-01T00:00:00.000Z',
      },
    ]);
    await fixture.whenStable();
    const row = (fixture.nativeElement as HTMLElement).querySelector('tbody tr');
    expect(row?.textContent).toContain('imported');
    expect(row?.textContent).toContain('2026-03-04');
    expect(row?.textContent).toContain('2.0 KiB');
    expect(text()).toContain('files 4 / 10');
    expect(text()).toContain('7 responses counted');
  });
});
