import { DOCUMENT, computed, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { PermissionRequest } from '../../../contract/api';
import { Attention } from './attention';
import { LiveStore } from './live-store';
import { PageTitle } from './page-title';

const request = (id: string, tool = 'Bash'): PermissionRequest => ({
  id,
  session_id: 's1',
  tool_name: tool,
  tool_use_id: null,
  input: {},
  description: 'Run a command',
  blocked_path: null,
  is_question: false,
  state: 'pending',
  created_at: '2026-11-30T10:00:00.000Z',
  expires_at: '2026-11-30T10:10:00.000Z',
  decided_at: null,
  decided_by: null,
  scope: null,
  message: null,
});

describe('Attention', () => {
  const shown: { title: string; tag?: string }[] = [];

  function setUp(visibility: 'hidden' | 'visible') {
    shown.length = 0;
    class FakeNotification {
      static permission: NotificationPermission = 'granted';
      constructor(title: string, options?: NotificationOptions) {
        shown.push({ title, tag: options?.tag });
      }
    }
    vi.stubGlobal('Notification', FakeNotification);
    const pending = signal<PermissionRequest[]>([]);
    const doc = { title: 'Relais', visibilityState: visibility };
    TestBed.configureTestingModule({
      providers: [
        { provide: DOCUMENT, useValue: doc },
        {
          provide: LiveStore,
          useValue: { pending, pendingCount: computed(() => pending().length) },
        },
      ],
    });
    TestBed.inject(Attention);
    return { pending, doc };
  }

  afterEach(() => vi.unstubAllGlobals());

  it('counts waiting prompts in the tab title', () => {
    const { pending, doc } = setUp('visible');
    pending.set([request('p1'), request('p2')]);
    TestBed.tick();
    expect(doc.title).toBe('(2) Relais');
    pending.set([]);
    TestBed.tick();
    expect(doc.title).toBe('Relais');
  });

  it('keeps the count when the page title changes, and the page title when the count does', () => {
    const { pending, doc } = setUp('visible');
    const page = TestBed.inject(PageTitle);
    pending.set([request('p1'), request('p2')]);
    TestBed.tick();
    page.show('Inbox · Relais');
    TestBed.tick();
    expect(doc.title).toBe('(2) Inbox · Relais');
    pending.set([]);
    TestBed.tick();
    expect(doc.title).toBe('Inbox · Relais');
  });

  it('notifies each new prompt once while the tab is hidden', () => {
    const { pending } = setUp('hidden');
    pending.set([request('p1')]);
    TestBed.tick();
    pending.set([request('p1'), request('p2', 'Write')]);
    TestBed.tick();
    expect(shown).toEqual([
      { title: 'Relais: Bash needs permission', tag: 'p1' },
      { title: 'Relais: Write needs permission', tag: 'p2' },
    ]);
  });

  it('does not notify while the person is looking at the tab', () => {
    const { pending } = setUp('visible');
    pending.set([request('p1')]);
    TestBed.tick();
    expect(shown).toEqual([]);
  });
});
