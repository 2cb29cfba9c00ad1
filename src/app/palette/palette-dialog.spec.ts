import { DIALOG_DATA, DialogRef } from '@angular/cdk/dialog';
import { signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { Typeahead } from '../core/typeahead';
import { PaletteCommand } from './commands';
import { PaletteDialog } from './palette-dialog';

describe('PaletteDialog', () => {
  const ran: string[] = [];
  const command = (id: string, label: string): PaletteCommand => ({
    id,
    label,
    group: 'g',
    run: () => ran.push(id),
  });

  async function setup() {
    ran.length = 0;
    const close = vi.fn();
    TestBed.configureTestingModule({
      imports: [PaletteDialog],
      providers: [
        { provide: DialogRef, useValue: { close } },
        {
          provide: DIALOG_DATA,
          useValue: {
            mode: 'commands',
            commands: signal([
              command('launch', 'Launch a session'),
              command('t3', 'Go to turn 3'),
              command('theme', 'Toggle theme'),
            ]),
          },
        },
      ],
    });
    const fixture = TestBed.createComponent(PaletteDialog);
    await fixture.whenStable();
    const input = fixture.nativeElement.querySelector('input') as HTMLInputElement;
    return { fixture, input, close };
  }

  it('filters by fuzzy search and runs the active command with Enter', async () => {
    const { fixture, input, close } = await setup();
    input.value = 'turn';
    input.dispatchEvent(new Event('input'));
    await fixture.whenStable();
    const options = fixture.nativeElement.querySelectorAll('[role=option]');
    expect(options.length).toBe(1);
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    expect(ran).toEqual(['t3']);
    expect(close).toHaveBeenCalled();
  });

  it('moves the active option with the arrow keys', async () => {
    const { fixture, input } = await setup();
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown' }));
    await fixture.whenStable();
    expect(input.getAttribute('aria-activedescendant')).toBe('palette-option-t3');
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp' }));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp' }));
    await fixture.whenStable();
    expect(input.getAttribute('aria-activedescendant')).toBe('palette-option-theme');
  });

  it('shows the shortcuts when "?" is typed', async () => {
    const { fixture, input } = await setup();
    input.value = '?';
    input.dispatchEvent(new Event('input'));
    await fixture.whenStable();
    expect(fixture.nativeElement.textContent).toContain('Keyboard shortcuts');
  });

  it('runs the command matching what was typed, Enter included, before the search had focus', async () => {
    const { fixture, input, close } = await setup();
    const typeahead = TestBed.inject(Typeahead);
    typeahead.start();
    for (const key of ['t', 'u', 'r', 'n', 'Enter', 'x']) {
      typeahead.capture(new KeyboardEvent('keydown', { key, cancelable: true }));
    }
    expect(ran).toEqual([]);
    input.dispatchEvent(new FocusEvent('focus'));
    await fixture.whenStable();
    expect(ran).toEqual(['t3']);
    expect(close).toHaveBeenCalled();
  });

  it('closes without running anything when Escape was typed before the search had focus', async () => {
    const { input, close } = await setup();
    const typeahead = TestBed.inject(Typeahead);
    typeahead.start();
    for (const key of ['t', 'Escape']) {
      typeahead.capture(new KeyboardEvent('keydown', { key, cancelable: true }));
    }
    input.dispatchEvent(new FocusEvent('focus'));
    expect(ran).toEqual([]);
    expect(close).toHaveBeenCalled();
  });
});
