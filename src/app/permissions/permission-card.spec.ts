import { TestBed } from '@angular/core/testing';
import type { PermissionRequest } from '../../../contract/api';
import { ARM_DELAY_MS } from './arming';
import { PermissionActions } from './permission-actions';
import { PermissionCard } from './permission-card';
import { notePromptInView } from '../../first-paint/handoff';

const request = (over: Partial<PermissionRequest>): PermissionRequest => ({
  id: 'perm_1',
  session_id: 'ses_1',
  tool_name: 'Network',
  tool_use_id: null,
  input: { host: 'api.example.org', port: 443 },
  description: 'A command wants to connect to api.example.org:443',
  blocked_path: null,
  is_question: false,
  state: 'pending',
  created_at: new Date().toISOString(),
  expires_at: new Date(Date.now() + 60_000).toISOString(),
  decided_at: null,
  decided_by: null,
  scope: null,
  message: null,
  ...over,
});

describe('PermissionCard', () => {
  async function render(req: PermissionRequest) {
    const decide = vi.fn().mockResolvedValue(null);
    TestBed.configureTestingModule({
      imports: [PermissionCard],
      providers: [{ provide: PermissionActions, useValue: { decide } }],
    });
    const fixture = TestBed.createComponent(PermissionCard);
    fixture.componentRef.setInput('request', req);
    fixture.detectChanges();
    // The buttons answer only once the card has been in view for a moment.
    await new Promise((resolve) => setTimeout(resolve, ARM_DELAY_MS + 50));
    await fixture.whenStable();
    fixture.detectChanges();
    const host = fixture.nativeElement as HTMLElement;
    const button = (label: string) =>
      [...host.querySelectorAll('button')].find((b) => b.textContent?.trim() === label) ?? null;
    return { decide, host, button };
  }

  it('offers "Always for this host" on a Network prompt, and answers allow, always', async () => {
    const { decide, host, button } = await render(request({}));
    expect(button('Allow once')).not.toBeNull();
    expect(button('Allow for this session')).not.toBeNull();
    const always = button('Always for this host');
    expect(always).not.toBeNull();
    expect(always!.type).toBe('button');
    expect(always!.getAttribute('aria-describedby')).toBeTruthy();
    const hint = host.querySelector('#' + always!.getAttribute('aria-describedby')!);
    expect(hint?.textContent).toContain('api.example.org:443');
    expect(host.querySelector('pre.subject')?.textContent).toBe('api.example.org:443');
    always!.click();
    expect(decide).toHaveBeenCalledWith('perm_1', { decision: 'allow', scope: 'always' });
  });

  it('has no such button on any other prompt', async () => {
    const { button } = await render(
      request({ tool_name: 'Bash', input: { command: 'npm test' }, description: null }),
    );
    expect(button('Allow once')).not.toBeNull();
    expect(button('Always for this host')).toBeNull();
  });

  it('counts its arming delay from when the first paint showed the prompt, not from its own render', async () => {
    notePromptInView('perm_early', performance.now() - ARM_DELAY_MS);
    const decide = vi.fn().mockResolvedValue(null);
    TestBed.configureTestingModule({
      imports: [PermissionCard],
      providers: [{ provide: PermissionActions, useValue: { decide } }],
    });
    const fixture = TestBed.createComponent(PermissionCard);
    fixture.componentRef.setInput('request', request({ id: 'perm_early' }));
    fixture.detectChanges();
    await new Promise((resolve) => setTimeout(resolve, 50));
    fixture.detectChanges();
    const allow = [...(fixture.nativeElement as HTMLElement).querySelectorAll('button')].find(
      (b) => b.textContent?.trim() === 'Allow once',
    )!;
    allow.click();
    expect(decide).toHaveBeenCalledWith('perm_early', { decision: 'allow', scope: 'once' });
  });
});
