import { TestBed } from '@angular/core/testing';
import type { AllowedHost } from '../../../contract/api';
import { ApiKey } from '../core/api-key';
import { FakeApi, provideFakeApi } from '../testing/fake-api';
import { AllowedHosts } from './allowed-hosts';
import { signal } from '@angular/core';

const host: AllowedHost = {
  host: 'api.example.org',
  port: 443,
  created_at: '2026-12-04T10:00:00.000Z',
  decided_by: 'console',
};

describe('AllowedHosts', () => {
  it('lists the remembered destinations and removes one', async () => {
    TestBed.configureTestingModule({
      imports: [AllowedHosts],
      providers: [
        provideFakeApi(),
        { provide: ApiKey, useValue: { key: signal('k'), rejected: signal(false) } },
      ],
    });
    const api = TestBed.inject(FakeApi);
    const fixture = TestBed.createComponent(AllowedHosts);
    const element = fixture.nativeElement as HTMLElement;
    await vi.waitFor(() =>
      api.expectOne('/api/allowed-hosts').flush({ items: [host], next_cursor: null }),
    );
    await fixture.whenStable();
    fixture.detectChanges();
    expect(element.textContent).toContain('api.example.org:443');
    const remove = element.querySelector<HTMLButtonElement>(
      'button[aria-label="Remove api.example.org:443"]',
    );
    expect(remove).not.toBeNull();
    remove!.click();
    const call = await vi.waitFor(() => api.expectOne((c) => c.method === 'DELETE'));
    expect(call.url).toBe('/api/allowed-hosts/api.example.org/443');
    call.flush({});
    await vi.waitFor(() =>
      api.expectOne('/api/allowed-hosts').flush({ items: [], next_cursor: null }),
    );
    await vi.waitFor(() => {
      fixture.detectChanges();
      expect(element.textContent).toContain('None: every new destination is a prompt.');
    });
    expect(element.textContent).toContain('api.example.org:443 removed');
    api.verify();
  });
});
