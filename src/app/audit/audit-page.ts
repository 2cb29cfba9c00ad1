import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { FormControl, FormGroup, ReactiveFormsModule } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { MatSelectModule } from '@angular/material/select';
import { RouterLink } from '@angular/router';
import { AuditEntry } from '../../../contract/permissions';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { CursorPager } from '../shared/cursor-pager';
import { Timestamp } from '../shared/timestamp';
import { AuditApi, AuditExportFormat } from './audit-api';
import {
  AUDIT_PERIODS,
  AuditFilters,
  AuditPeriod,
  NO_AUDIT_FILTERS,
  auditScope,
} from './audit-filters';
import { saveBlob } from '../shared/save-blob';
import { chipClasses } from '../shared/chip-tone';

const PAGE_SIZE = 50;

/** Every decision and rules change, filtered, paged newest first, exported as CSV or JSON. */
@Component({
  selector: 'app-audit-page',
  imports: [
    ReactiveFormsModule,
    RouterLink,
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
  protected readonly chipClasses = chipClasses;
  private readonly api = inject(AuditApi);
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
  private readonly pager = new CursorPager<AuditEntry>(async (before) => {
    const page = await this.api.page(this.scope(), before, PAGE_SIZE);
    const shown = (before ? (this.pager.items()?.length ?? 0) : 0) + page.items.length;
    this.announcement.set(
      `${shown} entries shown${page.next_cursor ? '; older entries remain' : ''}.`,
    );
    return page;
  });
  protected readonly entries = this.pager.items;
  protected readonly cursor = this.pager.cursor;
  protected readonly loading = this.pager.loading;
  protected readonly error = this.pager.error;
  protected readonly exporting = signal<AuditExportFormat | null>(null);
  protected readonly exportError = signal<ApiFailure | null>(null);
  protected readonly announcement = signal('');

  constructor() {
    void this.reload();
  }

  protected apply(): void {
    this.scope.set(auditScope(this.form.getRawValue(), Date.now()));
    void this.reload();
  }

  protected clear(): void {
    this.form.setValue(NO_AUDIT_FILTERS);
    this.apply();
  }

  protected reload(): Promise<void> {
    return this.pager.reload();
  }

  protected older(): Promise<void> {
    return this.pager.older();
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
