import { signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import type { IsolationReport } from '../../../contract/operations';
import { ApiClient } from './api-client';
import { ApiKey } from './api-key';
import { IsolationBanner } from './isolation-banner';

const report = (over: Partial<IsolationReport>): IsolationReport => ({
  enabled: true,
  available: true,
  problem: null,
  install: null,
  agents: [],
  ...over,
});

describe('IsolationBanner', () => {
  async function render(isolation: IsolationReport) {
    TestBed.configureTestingModule({
      imports: [IsolationBanner],
      providers: [
        { provide: ApiKey, useValue: { key: signal('k'), rejected: signal(false) } },
        { provide: ApiClient, useValue: { read: vi.fn().mockResolvedValue({ isolation }) } },
      ],
    });
    const fixture = TestBed.createComponent(IsolationBanner);
    // The reading is loaded on demand (a dynamic import), then answered.
    const read = TestBed.inject(ApiClient).read as ReturnType<typeof vi.fn>;
    await vi.waitFor(() => expect(read).toHaveBeenCalled());
    await fixture.whenStable();
    fixture.detectChanges();
    return (fixture.nativeElement as HTMLElement).textContent ?? '';
  }

  it('says what to install while sessions cannot be confined', async () => {
    const text = await render(
      report({
        available: false,
        problem: 'bubblewrap (bwrap) not found on PATH',
        install: 'sudo apt-get install bubblewrap socat',
      }),
    );
    expect(text).toContain('Sessions cannot start');
    expect(text).toContain('sudo apt-get install bubblewrap socat');
  });

  it('says sessions run unconfined when isolation is off', async () => {
    expect(await render(report({ enabled: false }))).toContain('RELAIS_ISOLATION=off');
  });

  it('shows nothing when commands are confined', async () => {
    expect((await render(report({}))).trim()).toBe('');
  });
});
