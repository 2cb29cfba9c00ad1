import { TestBed } from '@angular/core/testing';
import { FakeApi, provideFakeApi } from '../testing/fake-api';
import { sampleSession } from '../testing/sample-session';
import { SessionTitleView } from './session-title';

describe('SessionTitleView', () => {
  const setUp = () => {
    TestBed.configureTestingModule({ providers: [...provideFakeApi()] });
    const fixture = TestBed.createComponent(SessionTitleView);
    fixture.componentRef.setInput('session', sampleSession({ id: 'ses_1', title: 'Old' }));
    fixture.detectChanges();
    const element = fixture.nativeElement as HTMLElement;
    const name = () => element.querySelector('.name')?.textContent?.trim();
    return { fixture, element, name, daemon: TestBed.inject(FakeApi) };
  };

  it('shows the saved title at once, then whatever the session says when it comes again', async () => {
    const { fixture, element, name, daemon } = setUp();
    expect(name()).toBe('Old');
    element.querySelector<HTMLButtonElement>('.rename-button')!.click();
    fixture.detectChanges();
    const field = element.querySelector<HTMLInputElement>('#session-title-field')!;
    field.value = 'New';
    field.dispatchEvent(new Event('input'));
    element.querySelector('form')!.dispatchEvent(new Event('submit'));
    const rename = await vi.waitFor(() => daemon.expectOne('/api/sessions/ses_1'));
    rename.flush(sampleSession({ id: 'ses_1', title: 'New' }));
    await vi.waitFor(() => {
      fixture.detectChanges();
      expect(name()).toBe('New');
    });
    // The session as the stream has it (renamed once more elsewhere) takes the saved title's place.
    fixture.componentRef.setInput('session', sampleSession({ id: 'ses_1', title: 'Elsewhere' }));
    fixture.detectChanges();
    expect(name()).toBe('Elsewhere');
    daemon.verify();
  });
});
