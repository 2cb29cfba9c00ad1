import { signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { MessageResult, Session } from '../../../../contract/api';
import { LibraryApi } from '../../library/library-api';
import { SessionsApi } from '../../sessions/sessions-api';
import {
  type EarlySendOutcome,
  FIRST_PAINT_COMPOSER_ID,
  FIRST_PAINT_ID,
  dismissFirstPaint,
  recordEarlySend,
} from '../../../first-paint/handoff';
import { Composer } from './composer';
import { ConversationStore } from '../conversation-store';

describe('Composer', () => {
  function setUp(
    answer: (text: string) => Promise<MessageResult>,
    session = signal<Session | null>({ state: 'working' } as Session),
  ) {
    const sent: string[] = [];
    const libraryReads: (string | undefined)[] = [];
    TestBed.configureTestingModule({
      imports: [Composer],
      providers: [
        {
          provide: SessionsApi,
          useValue: { send: (_id: string, text: string) => (sent.push(text), answer(text)) },
        },
        {
          provide: ConversationStore,
          useValue: {
            queue: signal([]),
            session,
            refreshQueue: () => Promise.resolve(),
            timeline: signal([]),
          },
        },
        {
          provide: LibraryApi,
          useValue: {
            list: (filter: { subscriptionId?: string }) => (
              libraryReads.push(filter.subscriptionId),
              Promise.resolve([])
            ),
          },
        },
      ],
    });
    const fixture = TestBed.createComponent(Composer);
    fixture.componentRef.setInput('sessionId', 's1');
    fixture.detectChanges();
    const textarea = fixture.nativeElement.querySelector('textarea') as HTMLTextAreaElement;
    const type = (text: string): void => {
      textarea.value = text;
      textarea.dispatchEvent(new Event('input'));
      textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    };
    return { sent, type, fixture, textarea, libraryReads };
  }

  it('sends every instruction typed in a row, in order, even before the last one is answered', async () => {
    let release: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const { sent, type, fixture } = setUp(async () => {
      await slow;
      return { delivery: 'queued', entry: null };
    });
    type('alpha');
    type('beta');
    type('gamma');
    await new Promise((resolve) => setTimeout(resolve));
    expect(sent).toEqual(['alpha']); // beta waits for alpha's answer, so the order holds
    release();
    await fixture.componentInstance.send();
    expect(sent).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('gives a refused instruction back, so nothing typed is lost', async () => {
    const { type, fixture, textarea } = setUp(() => Promise.reject(new Error('queue full')));
    type('keep me');
    await fixture.componentInstance.send();
    fixture.detectChanges();
    expect(textarea.value).toBe('keep me');
  });

  it('takes keystrokes before the session is read, and sends only once it is known', async () => {
    const session = signal<Session | null>(null);
    const { sent, type, fixture, textarea } = setUp(
      async () => ({ delivery: 'sent', entry: null }),
      session,
    );
    expect(textarea.disabled).toBe(false);
    type('early');
    await fixture.componentInstance.send();
    expect(sent).toEqual([]);
    fixture.detectChanges();
    expect(textarea.value).toBe('early');
    session.set({ state: 'idle' } as Session);
    await fixture.componentInstance.send();
    expect(sent).toEqual(['early']);
  });

  it('closes the box once the session is known to be over', () => {
    const { fixture, textarea } = setUp(
      async () => ({ delivery: 'sent', entry: null }),
      signal<Session | null>({ state: 'ended' } as Session),
    );
    fixture.detectChanges();
    expect(textarea.disabled).toBe(true);
  });

  it("reads the library's commands once a command is typed, then once per subscription, not at every change of the session", () => {
    const session = signal<Session | null>({ state: 'working', subscription_id: 'a' } as Session);
    const { fixture, textarea, libraryReads } = setUp(
      async () => ({ delivery: 'sent', entry: null }),
      session,
    );
    textarea.value = 'plain words';
    textarea.dispatchEvent(new Event('input'));
    fixture.detectChanges();
    expect(libraryReads).toEqual([]); // opening the page, or typing words, reads nothing
    textarea.value = '/';
    textarea.dispatchEvent(new Event('input'));
    fixture.detectChanges();
    expect(libraryReads).toEqual(['a']);
    for (const state of ['waiting', 'working', 'idle'] as const) {
      session.set({ state, subscription_id: 'a' } as Session);
      fixture.detectChanges();
    }
    expect(libraryReads).toEqual(['a']);
    session.set({ state: 'idle', subscription_id: 'b' } as Session);
    fixture.detectChanges();
    expect(libraryReads).toEqual(['a', 'b']);
  });

  it('takes over what was typed in the first paint, its selection and its focus, and sends it only when asked', async () => {
    const { sent, fixture, textarea } = setUp(async () => ({ delivery: 'sent', entry: null }));
    const painted = document.createElement('div');
    painted.id = FIRST_PAINT_ID;
    const early = document.createElement('textarea');
    early.id = FIRST_PAINT_COMPOSER_ID;
    painted.append(early);
    document.body.append(painted);
    early.value = 'typed early';
    early.focus();
    early.setSelectionRange(6, 11);
    dismissFirstPaint();
    fixture.detectChanges();
    await fixture.whenStable();
    expect(document.getElementById(FIRST_PAINT_COMPOSER_ID)).toBeNull();
    expect(textarea.value).toBe('typed early');
    expect(document.activeElement).toBe(textarea);
    expect([textarea.selectionStart, textarea.selectionEnd]).toEqual([6, 11]);
    expect(sent).toEqual([]);
  });

  it('shows the answer to a message the first paint sent, never sends it again, and sends its own after it', async () => {
    const { sent, fixture, textarea } = setUp(async () => ({ delivery: 'sent', entry: null }));
    const painted = document.createElement('div');
    painted.id = FIRST_PAINT_ID;
    const early = document.createElement('textarea');
    early.id = FIRST_PAINT_COMPOSER_ID;
    painted.append(early);
    document.body.append(painted);
    let answer: (outcome: EarlySendOutcome) => void = () => undefined;
    const outcome = new Promise<EarlySendOutcome>((resolve) => (answer = resolve));
    recordEarlySend({ text: 'sent early', outcome });
    early.value = 'typed after';
    dismissFirstPaint();
    fixture.detectChanges();
    expect(textarea.value).toBe('typed after');
    textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    await new Promise((resolve) => setTimeout(resolve));
    expect(sent).toEqual([]); // Its own waits for the first paint's answer, to keep the order.
    answer({ ok: false, status: 409, code: 'queue_full', message: 'Queue full' });
    await fixture.componentInstance.send();
    fixture.detectChanges();
    expect(sent).toEqual(['typed after']);
    expect(fixture.nativeElement.querySelector('.error')?.textContent).toContain(
      'The queue is full (10 instructions)',
    );
    // The refused text comes back, the box being empty once its own message left.
    expect(textarea.value).toBe('sent early');
  });
});
