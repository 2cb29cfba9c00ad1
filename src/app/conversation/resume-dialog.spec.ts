import { ApplicationRef, Injector } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { MAT_DIALOG_DATA, MatDialogRef } from '@angular/material/dialog';
import { ResumeData, ResumeDialog, askResume } from './resume-dialog';

describe('ResumeDialog', () => {
  async function setup(data: ResumeData) {
    const close = vi.fn();
    TestBed.configureTestingModule({
      imports: [ResumeDialog],
      providers: [
        { provide: MAT_DIALOG_DATA, useValue: data },
        { provide: MatDialogRef, useValue: { close } },
      ],
    });
    const fixture = TestBed.createComponent(ResumeDialog);
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    const button = (name: string) =>
      [...root.querySelectorAll('button')].find((b) => b.textContent?.trim() === name)!;
    const checked = () =>
      root.querySelector('mat-radio-button.mat-mdc-radio-checked')?.textContent?.trim() ?? '';
    return { fixture, root, close, button, checked };
  }

  it('shows the folder and model, and offers an imported conversation read-only first', async () => {
    const { root, close, button, checked } = await setup({
      cwd: '/home/me/project',
      model: 'claude-sonnet-4-5',
      mode: 'write',
      imported: true,
    });
    expect(root.querySelector('#resume-folder')?.textContent).toContain('/home/me/project');
    expect(root.querySelector('#resume-model')?.textContent).toContain('claude-sonnet-4-5');
    expect(root.textContent).toContain('come from the imported transcript file');
    expect(checked()).toMatch(/^Read only/);
    button('Resume session').click();
    expect(close).toHaveBeenCalledWith({ permission_mode: 'read_only' });
  });

  it('lets the person change the mode; Cancel resumes nothing', async () => {
    const { fixture, root, close, button, checked } = await setup({
      cwd: '/w',
      model: 'gpt-5.5',
      mode: 'dry_run',
      imported: false,
    });
    expect(checked()).toMatch(/^Dry run/);
    const write = [...root.querySelectorAll('mat-radio-button input')].find(
      (input) => (input as HTMLInputElement).value === 'write',
    ) as HTMLInputElement;
    write.click();
    await fixture.whenStable();
    button('Resume session').click();
    expect(close).toHaveBeenLastCalledWith({ permission_mode: 'write' });
    button('Cancel').click();
    expect(close).toHaveBeenLastCalledWith(null);
  });

  it('askResume opens the dialog from an injector alone and answers what was chosen, null on Cancel', async () => {
    const injector = TestBed.inject(Injector);
    const data: ResumeData = { cwd: '', model: 'gpt-5.5', mode: 'dry_run', imported: false };
    const pressIn = async (name: string) => {
      await TestBed.inject(ApplicationRef).whenStable();
      const dialog = document.querySelector('app-resume-dialog')!;
      expect(dialog.querySelector('#resume-folder')?.textContent).toContain('(none named)');
      [...dialog.querySelectorAll('button')].find((b) => b.textContent?.trim() === name)!.click();
    };
    const chosen = askResume(injector, data);
    await pressIn('Resume session');
    expect(await chosen).toEqual({ permission_mode: 'dry_run' });
    const cancelled = askResume(injector, data);
    await pressIn('Cancel');
    expect(await cancelled).toBeNull();
  });
});
