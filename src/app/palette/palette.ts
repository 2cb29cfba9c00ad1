import { Dialog, DialogRef } from '@angular/cdk/dialog';
import { Injectable, Signal, computed, inject, signal } from '@angular/core';
import { Router } from '@angular/router';
import { LiveStore } from '../core/live-store';
import { Theme } from '../core/theme';
import { PaletteCommand } from './commands';
import { PaletteDialog, PaletteMode } from './palette-dialog';

/** The command palette: global commands plus those the open page registers (turns, tools). */
@Injectable({ providedIn: 'root' })
export class Palette {
  private readonly dialog = inject(Dialog);
  private readonly router = inject(Router);
  private readonly live = inject(LiveStore);
  private readonly theme = inject(Theme);
  private readonly contexts = signal<readonly Signal<PaletteCommand[]>[]>([]);
  private ref: DialogRef<unknown, PaletteDialog> | null = null;

  readonly commands = computed<PaletteCommand[]>(() => [
    ...this.contexts().flatMap((context) => context()),
    ...this.globalCommands(),
  ]);

  open(mode: PaletteMode = 'commands'): void {
    if (this.ref) {
      this.ref.componentInstance?.setMode(mode);
      return;
    }
    this.ref = this.dialog.open(PaletteDialog, {
      data: { mode, commands: this.commands },
      ariaLabel: 'Command palette',
      panelClass: 'palette-panel',
      backdropClass: 'palette-backdrop',
      autoFocus: 'first-tabbable',
      restoreFocus: true,
    });
    this.ref.closed.subscribe(() => (this.ref = null));
  }

  close(): void {
    this.ref?.close();
  }

  /** Adds page commands for as long as the page lives; returns the function that removes them. */
  register(commands: Signal<PaletteCommand[]>): () => void {
    this.contexts.update((list) => [...list, commands]);
    return () => this.contexts.update((list) => list.filter((entry) => entry !== commands));
  }

  private globalCommands(): PaletteCommand[] {
    const go = (path: string[], queryParams?: Record<string, string>) => () =>
      void this.router.navigate(path, queryParams ? { queryParams } : {});
    const oldest = this.live.pending()[0];
    const commands: PaletteCommand[] = [
      {
        id: 'launch',
        group: 'Actions',
        label: 'Launch a session',
        keywords: 'new start',
        run: go(['/sessions', 'new']),
      },
      {
        id: 'inbox',
        group: 'Navigate',
        label: 'Open the inbox',
        keywords: 'permissions prompts',
        run: go(['/inbox']),
      },
      {
        id: 'sessions',
        group: 'Navigate',
        label: 'Open the sessions dashboard',
        run: go(['/sessions']),
      },
      {
        id: 'theme',
        group: 'Actions',
        label: 'Toggle light / dark theme',
        keywords: 'dark light',
        run: () => this.theme.toggle(),
      },
      {
        id: 'help',
        group: 'Help',
        label: 'Keyboard shortcuts',
        keywords: '?',
        run: () => this.open('help'),
      },
    ];
    if (oldest) {
      commands.unshift({
        id: 'answer-oldest',
        group: 'Actions',
        label: `Answer the oldest prompt (${oldest.tool_name})`,
        keywords: 'permission approve',
        run: go(['/inbox'], { answer: oldest.id }),
      });
    }
    for (const session of this.live.sessions().slice(0, 50)) {
      commands.push({
        id: 'session-' + session.id,
        group: 'Sessions',
        label: `Go to session ${session.id.slice(-8)} · ${session.state} · ${session.cwd}`,
        keywords: `${session.model} ${session.app} ${session.subscription_id}`,
        run: go(['/sessions', session.id]),
      });
    }
    return commands;
  }
}
