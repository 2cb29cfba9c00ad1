import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { FormControl, FormGroup, ReactiveFormsModule } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { MatSelectModule } from '@angular/material/select';
import { RouterLink } from '@angular/router';
import { AuditEntry } from '../../../contract/permissions';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { Timestamp } from '../shared/timestamp';
import { AuditApi, AuditExportFormat } from './audit-api';
import {
  AUDIT_PERIODS,
  AuditFilters,
  AuditPeriod,
  NO_AUDIT_FILTERS,
  auditScope,
} from './audit-filters';
import { saveBlob } from './save-blob';

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
  protected readonly entries = signal<AuditEntry[] | null>(null);
  protected readonly cursor = signal<string | null>(null);
  protected readonly loading = signal(false);
  protected readonly error = signal<ApiFailure | null>(null);
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

  protected async reload(): Promise<void> {
    this.entries.set(null);
    this.cursor.set(null);
    await this.fetch(null);
  }

  protected async older(): Promise<void> {
    await this.fetch(this.cursor());
  }

  private async fetch(before: string | null): Promise<void> {
    this.loading.set(true);
    this.error.set(null);
    try {
      const page = await this.api.page(this.scope(), before, PAGE_SIZE);
      this.entries.update((shown) => [...(before ? (shown ?? []) : []), ...page.items]);
      this.cursor.set(page.next_cursor);
      this.announcement.set(
        `${this.entries()?.length ?? 0} entries shown${page.next_cursor ? '; older entries remain' : ''}.`,
      );
    } catch (error: unknown) {
      this.error.set(toApiFailure(error));
    } finally {
      this.loading.set(false);
    }
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
