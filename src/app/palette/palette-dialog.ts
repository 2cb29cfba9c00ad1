import { DIALOG_DATA, DialogRef } from '@angular/cdk/dialog';
import {
  ChangeDetectionStrategy,
  Component,
  Signal,
  computed,
  inject,
  signal,
} from '@angular/core';
import { Typeahead, Typed } from '../core/typeahead';
import { PaletteCommand, SHORTCUTS } from './commands';
import { fuzzyFilter } from './fuzzy';

export type PaletteMode = 'commands' | 'help';
export interface PaletteData {
  mode: PaletteMode;
  commands: Signal<PaletteCommand[]>;
}

const MAX_SHOWN = 60;

/** The component's words, in the console's language. */
const TEXT = {
  searchCommands: $localize`Search commands`,
  typeACommandA: $localize`Type a command, a session, a turn or a tool… (? for shortcuts)`,
  commands: $localize`Commands`,
  noCommandMatches: (query: unknown) => $localize`No command matches “${query}:query:”.`,
  keyboardShortcuts: $localize`Keyboard shortcuts`,
  backToCommands: $localize`Back to commands`,
  close: $localize`Close`,
};

/** The palette's dialog: a combobox over a listbox of commands, or the list of shortcuts. */
@Component({
  selector: 'app-palette-dialog',
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './palette-dialog.html',
  styleUrl: './palette-dialog.scss',
})
export class PaletteDialog {
  protected readonly t = TEXT;
  private readonly ref = inject<DialogRef<unknown, PaletteDialog>>(DialogRef);
  private readonly data = inject<PaletteData>(DIALOG_DATA);
  private readonly typeahead = inject(Typeahead);

  protected readonly mode = signal<PaletteMode>(this.data.mode);
  protected readonly query = signal('');
  protected readonly active = signal(0);
  protected readonly shortcuts = SHORTCUTS;
  protected readonly results = computed(() =>
    fuzzyFilter(this.query(), this.data.commands(), (c) => [
      c.label,
      c.group,
      c.keywords ?? '',
    ]).slice(0, MAX_SHOWN),
  );
  protected readonly activeId = computed(() => {
    const command = this.results()[this.active()];
    return command ? 'palette-option-' + command.id : null;
  });

  setMode(mode: PaletteMode): void {
    this.mode.set(mode);
  }

  /** Adds what was typed before the search had focus, then acts on its Enter or Escape. */
  type({ text, end }: Typed): void {
    if (text) this.onInput(this.query() + text);
    if (end === 'escape') this.close();
    else if (end === 'enter' && this.mode() === 'commands') this.runActive();
  }

  /** From the moment the search has focus, keys reach it directly. */
  protected onFocus(): void {
    this.type(this.typeahead.take());
  }

  protected onInput(value: string): void {
    if (value === '?' && this.query() === '') {
      this.mode.set('help');
      return;
    }
    this.query.set(value);
    this.active.set(0);
  }

  protected onKeydown(event: KeyboardEvent): void {
    const count = this.results().length;
    if (event.key === 'ArrowDown' && count) {
      event.preventDefault();
      this.active.update((i) => (i + 1) % count);
      this.scrollActive();
    } else if (event.key === 'ArrowUp' && count) {
      event.preventDefault();
      this.active.update((i) => (i - 1 + count) % count);
      this.scrollActive();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      this.runActive();
    }
  }

  private runActive(): void {
    const command = this.results()[this.active()];
    if (command) this.run(command);
  }

  protected run(command: PaletteCommand): void {
    this.ref.close();
    command.run();
  }

  protected backToCommands(): void {
    this.mode.set('commands');
    this.query.set('');
  }

  protected close(): void {
    this.ref.close();
  }

  private scrollActive(): void {
    queueMicrotask(() => {
      const id = this.activeId();
      if (id) document.getElementById(id)?.scrollIntoView?.({ block: 'nearest' });
    });
  }
}
