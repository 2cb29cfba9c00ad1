import { provideZonelessChangeDetection } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { FakeApi, provideFakeApi } from '../testing/fake-api';
import { QuotaCards } from './quota-cards';

const subscription = (id: string, name: string) => ({
  id,
  name,
  agent: 'claude',
  config_dir: '/tmp/work',
  builtin: false,
  account: null,
  account_key: null,
  models: [],
  detected_at: null,
  detect_error: null,
  shares_account_with: [],
  created_at: new Date().toISOString(),
  status: 'active',
  consecutive_failed_starts: 0,
  last_error: null,
  suspended_at: null,
  next_wait_seconds: 60,
});
const minutesAgo = (n: number): string => new Date(Date.now() - n * 60_000).toISOString();
const inHours = (n: number): string => new Date(Date.now() + n * 3_600_000).toISOString();

describe('QuotaCards', () => {
  let daemon: FakeApi;

  beforeEach(() => {
    TestBed.configureTestingModule({
      providers: [provideZonelessChangeDetection(), ...provideFakeApi()],
    });
    daemon = TestBed.inject(FakeApi);
  });

  afterEach(() => daemon.verify());

  async function render(): Promise<HTMLElement> {
    const fixture = TestBed.createComponent(QuotaCards);
    TestBed.tick();
    // The resource's request is a pending task: answer it before waiting for stability.
    await new Promise((done) => setTimeout(done));
    daemon.expectOne('/api/quotas').flush({
      items: [
        {
          subscription_id: 'work',
          windows: [
            {
              window: 'five_hour',
              utilization: 41,
              resets_at: inHours(2),
              read_at: minutesAgo(25.5),
              status: 'stale',
              source: 'usage_endpoint',
            },
            {
              window: 'seven_day',
              utilization: null,
              resets_at: null,
              read_at: null,
              status: 'unknown',
              source: 'none',
            },
            {
              window: 'seven_day_opus',
              utilization: 12,
              resets_at: inHours(50),
              read_at: minutesAgo(1.5),
              status: 'fresh',
              source: 'stream',
            },
          ],
          poll: { enabled: false, last_attempt_at: null, last_error: null, next_attempt_at: null },
        },
      ],
      next_cursor: null,
      stale_after_seconds: 600,
    });
    daemon.expectOne('/api/subscriptions').flush({
      items: [subscription('work', 'Work (team)')],
      next_cursor: null,
    });
    await fixture.whenStable();
    fixture.detectChanges();
    return fixture.nativeElement as HTMLElement;
  }

  it('titles each card with its subscription name', async () => {
    const root = await render();
    const card = root.querySelector('article[data-subscription="work"]')!;
    expect(card.querySelector('h3')!.textContent!.trim()).toBe('Work (team)');
    expect(card.querySelector('[role="meter"]')!.getAttribute('aria-label')).toBe(
      'Work (team) 5-hour window used',
    );
  });

  it('shows stale and unknown windows as such, with text and an icon, never as 0 %', async () => {
    const root = await render();
    const stale = root.querySelector('[data-window="five_hour"]')!;
    expect(stale.getAttribute('data-status')).toBe('stale');
    expect(stale.textContent).toContain('41 %');
    expect(stale.textContent).toContain('Stale: read 25 min ago');
    expect(stale.querySelector('svg.icon')).not.toBeNull();
    expect(stale.querySelector('[role="meter"]')!.getAttribute('aria-valuetext')).toBe(
      '41 %, stale',
    );

    const unknown = root.querySelector('[data-window="seven_day"]')!;
    expect(unknown.getAttribute('data-status')).toBe('unknown');
    expect(unknown.textContent).toContain('Unknown: no reading yet');
    expect(unknown.textContent).not.toMatch(/\b0 %/);
    expect(unknown.querySelector('[role="meter"]')).toBeNull();
    expect(unknown.querySelector('svg.icon')).not.toBeNull();

    const fresh = root.querySelector('[data-window="seven_day_opus"]')!;
    expect(fresh.textContent).toContain('Up to date');
    expect(fresh.textContent).toContain('read 1 min ago');
    expect(fresh.textContent).toMatch(/resets in 2d 1h|resets in 2d 2h/);
    expect(root.textContent).toContain('No OAuth token');
    expect(root.textContent).toContain('a reading older than 10 min is stale');
  });
});
