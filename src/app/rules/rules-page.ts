import { registerPageCommands } from '../palette/page-commands';
import { LatestAsk } from '../shared/latest-ask';
import { CdkDrag, CdkDragDrop, CdkDragHandle, CdkDropList } from '@angular/cdk/drag-drop';
import {
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  Injector,
  afterNextRender,
  afterRenderEffect,
  computed,
  inject,
  input,
  signal,
} from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { PageLink } from '../core/routing/page-link';
import { Rule, RulesView } from '../../../contract/permissions';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { AllowedHosts } from './allowed-hosts';
import { RuleEditor } from './rule-editor';
import {
  RULE_KINDS,
  RuleKind,
  actionLabel,
  groupRules,
  moveWithinKind,
  removeRule,
  upsertRule,
} from './rule-list';
import { RuleTester } from './rule-tester';
import { RulesApi, RulesRefusal, rulesRefusal } from './rules-api';
import { chipClasses } from '../shared/chip-tone';
import { CLOSE, OPEN, markedParts } from '../shared/marked-text';

interface Editing {
  /** The id of the rule being edited; null while adding. */
  id: string | null;
  rule: Rule | null;
  kind: RuleKind;
}

/** The component's words, in the console's language. */
const TEXT = {
  rules: $localize`Rules`,
  auditTrail: $localize`Audit trail`,
  intro: markedParts(
    $localize`For each tool call the daemon tries the rules whose action is ${OPEN}:start_deny:deny${CLOSE}:close_deny:, then ${OPEN}:start_ask:ask${CLOSE}:close_ask:, then ${OPEN}:start_allow:allow${CLOSE}:close_allow:; within an action the first match decides. The order below is the order within a kind.`,
  ),
  theRulesCouldNot: (message: unknown, code: unknown) =>
    $localize`The rules could not be loaded: ${message}:message: (${code}:code:)`,
  retry: $localize`Retry`,
  version: (version: unknown, source: unknown) =>
    $localize`Version ${version}:version: · ${source}:source:`,
  rules2: (rules: unknown) => $localize`· ${rules}:rules: rules`,
  undoDelete: $localize`Undo delete`,
  savingFailed: (message: unknown, code: unknown) =>
    $localize`Saving failed: ${message}:message: (${code}:code:)`,
  theDaemonRefusedThese: (line: unknown, reason: unknown) =>
    $localize`The daemon refused these rules at line ${line}:line:: ${reason}:reason:`,
  dragARuleBy: $localize`Drag a rule by its handle, or focus it and press Alt+↑ / Alt+↓, to change its place within its kind.`,
  add: $localize`:add a rule:Add`,
  addRule: (kind: string) => $localize`Add a ${kind}:kind: rule`,
  ruleAt: (kind: string, place: number, count: number, id: string) =>
    $localize`${kind}:kind: rule ${place}:place: of ${count}:count:: ${id}:id:`,
  moveUp: (id: string) => $localize`Move ${id}:id: up`,
  moveDown: (id: string) => $localize`Move ${id}:id: down`,
  edit: (id: unknown) => $localize`Edit ${id}:name:`,
  edit2: $localize`Edit`,
  delete: (id: unknown) => $localize`Delete ${id}:name:`,
  delete2: $localize`Delete`,
  noRuleOfThis: $localize`No rule of this kind yet.`,
  loadingRules: $localize`Loading rules…`,
};

/** The rules in force, grouped by kind, edited in place and saved whole through the daemon. */
@Component({
  selector: 'app-rules-page',
  imports: [
    AllowedHosts,
    CdkDropList,
    CdkDrag,
    CdkDragHandle,
    MatButtonModule,
    PageLink,
    RuleEditor,
    RuleTester,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './rules-page.html',
  styleUrl: './rules-page.scss',
})
export class RulesPage {
  protected readonly t = TEXT;
  protected readonly chipClasses = chipClasses;
  private readonly api = inject(RulesApi);
  private readonly injector = inject(Injector);
  private readonly host = inject<ElementRef<HTMLElement>>(ElementRef);

  protected readonly view = signal<RulesView | null>(null);
  /** A read of the rules answered after a newer read or a save is not shown. */
  private readonly reading = new LatestAsk();
  protected readonly loadError = signal<ApiFailure | null>(null);
  protected readonly saving = signal(false);
  protected readonly saveError = signal<ApiFailure | null>(null);
  protected readonly refusal = signal<RulesRefusal | null>(null);
  protected readonly editing = signal<Editing | null>(null);
  protected readonly announcement = signal('');
  /** The rules before the last deletion, for Undo. */
  protected readonly undoRules = signal<Rule[] | null>(null);

  protected readonly rules = computed(() => this.view()?.rules ?? []);
  protected readonly groups = computed(() => groupRules(this.rules()));
  protected readonly actionLabel = actionLabel;

  /** `?rule=<id>` (a refusal in a conversation links here): that rule, scrolled to and focused. */
  readonly rule = input<string>();
  private shownRule: string | null = null;

  constructor() {
    registerPageCommands(() => [
      {
        id: 'rules-refresh',
        group: $localize`Rules`,
        label: $localize`Reload the rules`,
        keywords: 'refresh',
        run: () => void this.load(),
      },
      ...RULE_KINDS.map((info) => ({
        id: 'rules-add-' + info.kind,
        group: $localize`Rules`,
        label: $localize`Add a rule: ${info.label}`,
        keywords: 'new create',
        run: () => this.startAdd(info.kind),
      })),
      ...(this.undoRules()
        ? [
            {
              id: 'rules-undo',
              group: $localize`Rules`,
              label: $localize`Undo the deletion`,
              keywords: 'restore',
              run: () => void this.undo(),
            },
          ]
        : []),
    ]);
    void this.load();
    afterRenderEffect(() => {
      const id = this.rule();
      if (!id || id === this.shownRule || !this.rules().some((rule) => rule.id === id)) return;
      const row = this.host.nativeElement.querySelector<HTMLElement>(
        `li[data-rule-id="${CSS.escape(id)}"]`,
      );
      if (!row) return;
      this.shownRule = id;
      row.scrollIntoView({ block: 'center' });
      row.focus({ preventScroll: true });
    });
  }

  protected async load(): Promise<void> {
    const current = this.reading.ask();
    this.loadError.set(null);
    try {
      const view = await this.api.get();
      if (current()) this.view.set(view);
    } catch (error: unknown) {
      if (current()) this.loadError.set(toApiFailure(error));
    }
  }

  protected startAdd(kind: RuleKind): void {
    this.refusal.set(null);
    this.editing.set({ id: null, rule: null, kind });
  }

  protected startEdit(rule: Rule): void {
    this.refusal.set(null);
    this.editing.set({ id: rule.id, rule, kind: rule.kind });
  }

  protected cancelEdit(): void {
    this.refusal.set(null);
    this.editing.set(null);
  }

  protected async submitRule(rule: Rule): Promise<void> {
    const editing = this.editing();
    if (!editing) return;
    const saved = await this.save(
      upsertRule(this.rules(), editing.id, rule),
      editing.id ? $localize`Rule ${rule.id} saved` : $localize`Rule ${rule.id} added`,
    );
    if (saved) this.editing.set(null);
  }

  protected async remove(rule: Rule): Promise<void> {
    const before = this.rules();
    if (await this.save(removeRule(before, rule.id), $localize`Rule ${rule.id} deleted`))
      this.undoRules.set(before);
  }

  protected async undo(): Promise<void> {
    const rules = this.undoRules();
    if (rules && (await this.save(rules, $localize`Deletion undone`))) this.undoRules.set(null);
  }

  protected dropped(kind: RuleKind, event: CdkDragDrop<unknown>): void {
    void this.move(kind, event.previousIndex, event.currentIndex);
  }

  protected onRowKey(event: KeyboardEvent, kind: RuleKind, index: number): void {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    void this.move(kind, index, index + (event.key === 'ArrowUp' ? -1 : 1));
  }

  protected async move(kind: RuleKind, from: number, to: number): Promise<void> {
    const current = this.rules();
    const moved = moveWithinKind(current, kind, from, to);
    if (moved.every((rule, i) => rule === current[i])) return;
    const id = current.filter((r) => r.kind === kind)[from]?.id ?? '';
    if (await this.save(moved, $localize`Rule ${id} moved to position ${to + 1}`)) {
      // Keep the keyboard on the moved rule once its row stands at its new place.
      afterNextRender(
        () =>
          this.host.nativeElement
            .querySelector<HTMLElement>(`li[data-rule-id="${CSS.escape(id)}"]`)
            ?.focus(),
        { injector: this.injector },
      );
    }
  }

  /** Saves the whole set; a refusal keeps the previous rules and says where and why. */
  private async save(rules: Rule[], done: string): Promise<boolean> {
    // One save at a time: the set is saved whole, so a second one built on the rules shown before
    // the first answered would undo it.
    if (this.saving()) return false;
    this.reading.supersede();
    this.saving.set(true);
    this.saveError.set(null);
    this.refusal.set(null);
    try {
      const view = await this.api.save(rules, this.view()?.version);
      this.reading.supersede();
      this.view.set(view);
      this.announcement.set(`${done} (version ${view.version}).`);
      return true;
    } catch (error: unknown) {
      const refusal = rulesRefusal(error);
      const failure = toApiFailure(error);
      if (refusal) this.refusal.set(refusal);
      else if (failure.code === 'rules_changed') this.showSavedElsewhere(failure);
      else this.saveError.set(failure);
      return false;
    } finally {
      this.saving.set(false);
    }
  }

  /** Saved meanwhile by another tab or tool: the rules as they are now, and the change to redo. */
  private showSavedElsewhere(failure: ApiFailure): void {
    this.saveError.set({
      ...failure,
      message:
        'the rules were saved elsewhere meanwhile (another tab or a tool). They are shown as they are now: make your change again',
    });
    queueMicrotask(() => void this.load());
  }
}
