import {
  ChangeDetectionStrategy,
  Component,
  effect,
  inject,
  signal,
  untracked,
} from '@angular/core';
import { takeUntilDestroyed } from '@angular/core/rxjs-interop';
import { FormControl, FormGroup, ReactiveFormsModule } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { MatSelectModule } from '@angular/material/select';
import { merge } from 'rxjs';
import { AuditEntry } from '../../../contract/permissions';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { ActivePage } from '../core/routing/active-page';
import { Navigator } from '../core/routing/navigator';
import { PageLink } from '../core/routing/page-link';
import { CursorPager } from '../shared/cursor-pager';
import { Timestamp } from '../shared/timestamp';
import { AuditApi, AuditExportFormat } from './audit-api';
import {
  AUDIT_PERIODS,
  AuditFilters,
  AuditPeriod,
  NO_AUDIT_FILTERS,
  auditFiltersFromParams,
  auditFiltersToParams,
  auditScope,
} from './audit-filters';
import { saveBlob } from '../shared/save-blob';
import { CLOSE, OPEN, markedParts } from '../shared/marked-text';
import { PaletteCommand } from '../palette/commands';
import { chipClasses } from '../shared/chip-tone';
import { decidedByLabel } from '../shared/decided-by-label';
import { decisionLabel, stepLabel } from '../shared/verdict-label';
import { registerPageCommands } from '../palette/page-commands';

const PAGE_SIZE = 50;

/** The component's words, in the console's language. */
const TEXT = {
  auditTrail: $localize`Audit trail`,
  exportTheFilteredEntries: $localize`Export the filtered entries`,
  exporting: $localize`Exporting…`,
  exportCsv: $localize`Export CSV`,
  exportJson: $localize`Export JSON`,
  intro: markedParts(
    $localize`Every decision on a tool call (by the rules, by a person, by a timeout) and every change of the ${OPEN}:start_link:rules${CLOSE}:close_link:, newest first. Exports hold exactly the filtered entries, oldest first.`,
  ),
  filters: $localize`Filters`,
  session: $localize`Session`,
  tool: $localize`Tool`,
  bash: $localize`Bash`,
  decision: $localize`Decision`,
  anyDecision: $localize`Any decision`,
  allow: $localize`allow`,
  deny: $localize`deny`,
  savedRules: $localize`saved (rules)`,
  kind: $localize`Kind`,
  anyKind: $localize`Any kind`,
  decisions: $localize`Decisions`,
  rulesChanges: $localize`Rules changes`,
  keysAndCallers: $localize`Keys and callers`,
  period: $localize`Period`,
  applyFilters: $localize`Apply filters`,
  clear: $localize`Clear`,
  theExportFailed: (message: unknown, code: unknown) =>
    $localize`The export failed: ${message}:message: (${code}:code:)`,
  theAuditTrailCould: (message: unknown, code: unknown) =>
    $localize`The audit trail could not be loaded: ${message}:message: (${code}:code:)`,
  retry: $localize`Retry`,
  noEntryMatchesThese: $localize`No entry matches these filters yet. Decisions appear here as sessions use tools.`,
  auditEntriesScrollsSideways: $localize`Audit entries (scrolls sideways)`,
  auditEntriesNewestFirst: $localize`Audit entries, newest first`,
  time: $localize`Time`,
  input: $localize`Input`,
  step: $localize`Step`,
  rule: $localize`Rule`,
  decidedBy: $localize`Decided by`,
  detail: $localize`Detail`,
  rulesChange: $localize`rules change`,
  decision2: $localize`decision`,
  access: $localize`:audit entry kind:access`,
  openSession: $localize`Open session`,
  entriesShown: (entries: unknown) => $localize`${entries}:entries: entries shown`,
  loading: $localize`Loading…`,
  loadOlderEntries: $localize`Load older entries`,
  thisIsTheOldest: $localize`This is the oldest entry.`,
  loadingTheAuditTrail: $localize`Loading the audit trail…`,
};

/**
 * Every decision and rules change, filtered, paged newest first, exported as CSV or JSON. The
 * filters live in the URL, as on Analytics: a link shows the same scope, Back steps through them.
 */
@Component({
  selector: 'app-audit-page',
  imports: [
    ReactiveFormsModule,
    PageLink,
    MatButtonModule,
    MatFormFieldModule,
    MatInputModule,
    MatSelectModule,
    Timestamp,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './audit-page.html',
  styleUrl: './audit-page.scss',
})
export class AuditPage {
  protected readonly t = TEXT;
  protected readonly chipClasses = chipClasses;
  protected readonly decidedByLabel = decidedByLabel;
  protected readonly decisionLabel = decisionLabel;
  protected readonly stepLabel = stepLabel;
  private readonly api = inject(AuditApi);
  private readonly navigator = inject(Navigator);
  private readonly page = inject(ActivePage);
  protected readonly periods = AUDIT_PERIODS;

  protected readonly form = new FormGroup({
    session: new FormControl('', { nonNullable: true }),
    tool: new FormControl('', { nonNullable: true }),
    decision: new FormControl<AuditFilters['decision']>('', { nonNullable: true }),
    kind: new FormControl<AuditFilters['kind']>('', { nonNullable: true }),
    period: new FormControl<AuditPeriod>('all', { nonNullable: true }),
  });

  /** The scope the table shows, fixed when the filters were applied; the export uses it too. */
  private readonly scope = signal<Record<string, string>>({});
  private readonly pager = new CursorPager<AuditEntry>((before) =>
    this.api.page(this.scope(), before, PAGE_SIZE),
  );
  protected readonly entries = this.pager.items;
  protected readonly cursor = this.pager.cursor;
  protected readonly loading = this.pager.loading;
  protected readonly error = this.pager.error;
  protected readonly exporting = signal<AuditExportFormat | null>(null);
  protected readonly exportError = signal<ApiFailure | null>(null);
  protected readonly announcement = signal('');

  /** The filters last shown, so that a navigation to the same filters does not read twice. */
  private shown: string | null = null;

  constructor() {
    effect(() => {
      const filters = auditFiltersFromParams(this.page.query());
      untracked(() => {
        this.form.setValue(filters, { emitEvent: false });
        if (JSON.stringify(filters) !== this.shown) this.show(filters);
      });
    });
    // A choice in a list applies at once, as on Analytics; the text fields apply with Enter.
    const { decision, kind, period } = this.form.controls;
    merge(decision.valueChanges, kind.valueChanges, period.valueChanges)
      .pipe(takeUntilDestroyed())
      .subscribe(() => this.apply());
    registerPageCommands(() => this.commands());
  }

  protected apply(): void {
    const filters = this.form.getRawValue();
    // Apply again re-reads (a period ends now); a change also gets its own history entry.
    this.show(filters);
    void this.navigator.mergeQuery(auditFiltersToParams(filters));
  }

  protected clear(): void {
    this.form.setValue(NO_AUDIT_FILTERS, { emitEvent: false });
    this.apply();
  }

  private show(filters: AuditFilters): void {
    this.shown = JSON.stringify(filters);
    this.scope.set(auditScope(filters, Date.now()));
    void this.reload();
  }

  private setFilter(change: Partial<AuditFilters>): void {
    this.form.patchValue(change, { emitEvent: false });
    this.apply();
  }

  private commands(): PaletteCommand[] {
    const group = 'Audit';
    return [
      {
        id: 'audit-refresh',
        group,
        label: $localize`Refresh the audit trail`,
        keywords: 'reload',
        run: () => void this.reload(),
      },
      {
        id: 'audit-export-csv',
        group,
        label: $localize`Export the audit entries as CSV`,
        keywords: 'download',
        run: () => void this.export('csv'),
      },
      {
        id: 'audit-export-json',
        group,
        label: $localize`Export the audit entries as JSON`,
        keywords: 'download',
        run: () => void this.export('json'),
      },
      {
        id: 'audit-clear',
        group,
        label: $localize`Clear the audit filters`,
        keywords: 'reset filter',
        run: () => this.clear(),
      },
      ...this.filterCommands(group),
      ...(this.cursor()
        ? [
            {
              id: 'audit-older',
              group,
              label: $localize`Load older audit entries`,
              keywords: 'more page',
              run: () => void this.older(),
            },
          ]
        : []),
    ];
  }

  /** Commands that set one filter: denied calls, rules changes, each period. */
  private filterCommands(group: string): PaletteCommand[] {
    return [
      {
        id: 'audit-denied',
        group,
        label: $localize`Show only denied calls`,
        keywords: 'filter deny refused',
        run: () => this.setFilter({ decision: 'deny' }),
      },
      {
        id: 'audit-rules-changes',
        group,
        label: $localize`Show only rules changes`,
        keywords: 'filter kind',
        run: () => this.setFilter({ kind: 'rules_change' }),
      },
      ...AUDIT_PERIODS.map((period) => ({
        id: 'audit-period-' + period.value,
        group,
        label: $localize`Audit period: ${period.label}`,
        keywords: 'filter time range',
        run: () => this.setFilter({ period: period.value }),
      })),
    ];
  }

  protected async reload(): Promise<void> {
    await this.pager.reload();
    this.announceShown();
  }

  protected async older(): Promise<void> {
    await this.pager.older();
    this.announceShown();
  }

  /** Said once the pager shows a page (a page it dropped, read for older filters, says nothing). */
  private announceShown(): void {
    const shown = this.pager.items();
    if (shown === null || this.pager.loading() || this.pager.error()) return;
    this.announcement.set(
      `${shown.length} entries shown${this.pager.cursor() ? '; older entries remain' : ''}.`,
    );
  }

  protected async export(format: AuditExportFormat): Promise<void> {
    this.exporting.set(format);
    this.exportError.set(null);
    try {
      const blob = await this.api.export(this.scope(), format);
      saveBlob(blob, `relais-audit.${format}`);
    } catch (error: unknown) {
      this.exportError.set(toApiFailure(error));
    } finally {
      this.exporting.set(null);
    }
  }

  protected ms(iso: string): number {
    return Date.parse(iso);
  }
}
