import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { LatestAsk } from '../shared/latest-ask';
import { CLOSE, OPEN, markedParts } from '../shared/marked-text';
import { FormsModule } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { MatRadioModule } from '@angular/material/radio';
import { MatSelectModule } from '@angular/material/select';
import { MatSlideToggleModule } from '@angular/material/slide-toggle';
import { Subscription } from '../../../contract/api';
import { LibraryItem, LibraryKind } from '../../../contract/library';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { SubscriptionsApi } from '../subscriptions/subscriptions-api';
import { LibraryApi } from './library-api';

interface Draft {
  id: string | null;
  kind: LibraryKind;
  scope: string;
  source: 'write' | 'import';
  name: string;
  content: string;
  path: string;
}

const COMMON = 'common';
const emptyDraft = (): Draft => ({
  id: null,
  kind: 'command',
  scope: COMMON,
  source: 'write',
  name: '',
  content: '',
  path: '',
});

/** The component's words, in the console's language. */
const TEXT = {
  library: $localize`Library`,
  theLibraryCouldNot: (message: unknown) =>
    $localize`The library could not be loaded: ${message}:message:`,
  retry: $localize`Retry`,
  permanentInstructions: $localize`Permanent instructions`,
  appendedToTheSystem: $localize`Appended to the system prompt of new conversations: the common ones, then the subscription's. A running conversation keeps those it started with.`,
  everySubscription: $localize`Every subscription`,
  instructions: $localize`Instructions`,
  saveInstructions: $localize`Save instructions`,
  skillsAndCommands: $localize`Skills and commands`,
  explanation: markedParts(
    $localize`Placed where each agent reads them (Claude: the subscription's configuration folder; Codex: its CODEX_HOME). Commands are typed with ${OPEN}:start_code:/${CLOSE}:close_code: in the composer.`,
  ),
  loading: $localize`Loading…`,
  libraryItems: $localize`Library items`,
  enabled: (name: unknown) => $localize`Enabled: ${name}:name:`,
  enabled2: $localize`Enabled`,
  edit: (name: unknown) => $localize`Edit ${name}:name:`,
  delete: (name: unknown) => $localize`Delete ${name}:name:`,
  nothingYetWriteA: $localize`Nothing yet: write a command or a skill below, or import one.`,
  addToTheLibrary: $localize`Add to the library`,
  kind: $localize`Kind`,
  command: $localize`Command`,
  skill: $localize`Skill`,
  source: $localize`Source`,
  writeIt: $localize`Write it`,
  importFromAPath: $localize`Import from a path`,
  name: $localize`Name`,
  lettersDigitsAndOptional: $localize`Letters, digits, - and _ (optional when imported).`,
  subscription: $localize`Subscription`,
  pathOnThisMachine: $localize`Path on this machine`,
  aCommandAMd: $localize`A command: a .md file. A skill: a folder holding SKILL.md.`,
  contentMarkdown: $localize`Content (Markdown)`,
  cancel: $localize`Cancel`,
  save: $localize`Save`,
  for: $localize`For`,
  add: $localize`Add`,
};

/** Skills and commands the agents find in their folders, and the instructions new sessions start with. */
@Component({
  selector: 'app-library-page',
  imports: [
    FormsModule,
    MatButtonModule,
    MatFormFieldModule,
    MatInputModule,
    MatRadioModule,
    MatSelectModule,
    MatSlideToggleModule,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './library-page.html',
  styleUrl: './library-page.scss',
})
export class LibraryPage {
  protected readonly t = TEXT;
  protected readonly kindLabels: Record<LibraryItem['kind'], string> = {
    skill: $localize`:library item kind:skill`,
    command: $localize`:library item kind:command`,
  };
  private readonly api = inject(LibraryApi);
  private readonly subscriptionsApi = inject(SubscriptionsApi);

  protected readonly common = COMMON;
  protected readonly items = signal<LibraryItem[] | null>(null);
  protected readonly subscriptions = signal<Subscription[]>([]);
  protected readonly loadError = signal<ApiFailure | null>(null);
  protected readonly draft = signal<Draft>(emptyDraft());
  protected readonly submitting = signal(false);
  private readonly toggles = new Map<string, LatestAsk>();
  protected readonly draftError = signal<ApiFailure | null>(null);
  protected readonly itemError = signal<ApiFailure | null>(null);
  protected readonly saved = signal('');
  protected readonly scope = signal(COMMON);
  protected readonly instructionsText = signal('');
  protected readonly instructionsSaved = signal('');
  protected readonly instructionsError = signal<ApiFailure | null>(null);
  private readonly allInstructions = signal<Record<string, string>>({});

  protected readonly scopeNames = computed(() => {
    const names: Record<string, string> = { [COMMON]: $localize`Every subscription` };
    for (const s of this.subscriptions()) names[s.id] = s.name;
    return names;
  });

  constructor() {
    void this.load();
  }

  protected async load(): Promise<void> {
    this.loadError.set(null);
    try {
      const [items, subscriptions, instructions] = await Promise.all([
        this.api.list(),
        this.subscriptionsApi.list(),
        this.api.instructions(),
      ]);
      this.items.set(items);
      this.subscriptions.set(subscriptions);
      this.allInstructions.set(Object.fromEntries(instructions.map((i) => [i.scope, i.text])));
      this.instructionsText.set(this.allInstructions()[this.scope()] ?? '');
    } catch (error: unknown) {
      this.loadError.set(toApiFailure(error));
    }
  }

  protected scopeOf(item: LibraryItem): string {
    return this.scopeNames()[item.subscription_id ?? COMMON] ?? item.subscription_id ?? '';
  }

  protected pickScope(scope: string): void {
    this.scope.set(scope);
    this.instructionsText.set(this.allInstructions()[scope] ?? '');
    this.instructionsSaved.set('');
  }

  protected async saveInstructions(): Promise<void> {
    this.instructionsError.set(null);
    try {
      const saved = await this.api.saveInstructions(this.scope(), this.instructionsText());
      this.allInstructions.update((all) => ({ ...all, [saved.scope]: saved.text }));
      this.instructionsSaved.set(
        'Saved. New sessions start with these instructions; running ones keep theirs.',
      );
    } catch (error: unknown) {
      this.instructionsError.set(toApiFailure(error));
    }
  }

  protected patchDraft(change: Partial<Draft>): void {
    this.draft.update((d) => ({ ...d, ...change }));
  }

  protected edit(item: LibraryItem): void {
    this.draftError.set(null);
    this.saved.set('');
    this.draft.set({
      id: item.id,
      kind: item.kind,
      scope: item.subscription_id ?? COMMON,
      source: 'write',
      name: item.name,
      content: item.content,
      path: '',
    });
    queueMicrotask(() => document.getElementById('item-form-title')?.focus());
  }

  protected cancel(): void {
    this.draft.set(emptyDraft());
    this.draftError.set(null);
  }

  protected async submit(): Promise<void> {
    // One save at a time: a double click or a second Enter would add the item twice.
    if (this.submitting()) return;
    const d = this.draft();
    const subscriptionId = d.scope === COMMON ? null : d.scope;
    this.draftError.set(null);
    this.saved.set('');
    this.submitting.set(true);
    try {
      const item =
        d.id !== null
          ? await this.api.update(d.id, {
              name: d.name.trim(),
              content: d.content,
              subscription_id: subscriptionId,
            })
          : await this.api.create({
              kind: d.kind,
              subscription_id: subscriptionId,
              ...(d.source === 'import'
                ? { import_path: d.path.trim(), ...(d.name.trim() ? { name: d.name.trim() } : {}) }
                : { name: d.name.trim(), content: d.content }),
            });
      this.items.update((list) =>
        [...(list ?? []).filter((i) => i.id !== item.id), item].sort((a, b) =>
          `${a.kind}${a.name}`.localeCompare(`${b.kind}${b.name}`),
        ),
      );
      const name = item.name;
      this.saved.set(
        item.kind === 'skill'
          ? $localize`Skill ${name}:name: saved.`
          : $localize`Command ${name}:name: saved.`,
      );
      // Unless the person went on to edit another item meanwhile: that form stays as it is.
      if (this.draft().id === d.id) this.draft.set(emptyDraft());
    } catch (error: unknown) {
      if (this.draft().id === d.id) this.draftError.set(toApiFailure(error));
    } finally {
      this.submitting.set(false);
    }
  }

  protected async toggle(item: LibraryItem, enabled: boolean): Promise<void> {
    this.itemError.set(null);
    // Toggled again before the answer: the answer to the last toggle is the one shown.
    const current = this.togglesOf(item.id).ask();
    try {
      const updated = await this.api.update(item.id, { enabled });
      if (!current()) return;
      this.items.update((list) => (list ?? []).map((i) => (i.id === item.id ? updated : i)));
    } catch (error: unknown) {
      if (current()) this.itemError.set(toApiFailure(error));
    }
  }

  private togglesOf(id: string): LatestAsk {
    let toggles = this.toggles.get(id);
    if (!toggles) this.toggles.set(id, (toggles = new LatestAsk()));
    return toggles;
  }

  protected async remove(item: LibraryItem): Promise<void> {
    this.itemError.set(null);
    try {
      await this.api.remove(item.id);
      this.items.update((list) => (list ?? []).filter((i) => i.id !== item.id));
      this.saved.set($localize`${item.name}:name: deleted.`);
    } catch (error: unknown) {
      this.itemError.set(toApiFailure(error));
    }
  }
}
