import { ChangeDetectionStrategy, Component, computed, input, output } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { MatSelectModule } from '@angular/material/select';
import {
  EMPTY_FILTER,
  FilterState,
  LIST_KEYS,
  ListKey,
  PERIODS,
  Period,
  isFiltered,
} from './analytics-filter';

export type FilterOptions = Record<ListKey, string[]>;

const LABELS: Record<ListKey, string> = {
  agent: $localize`Agent`,
  model: $localize`Model`,
  tool: $localize`Tool`,
  subscription: $localize`Subscription`,
  app: $localize`App`,
};

/** The component's words, in the console's language. */
const TEXT = {
  filters: $localize`Filters`,
  noValueInThis: $localize`No value in this period`,
  period: $localize`Period`,
  from: $localize`From`,
  importedTurns: $localize`Imported turns`,
  included: $localize`Included`,
  excluded: $localize`Excluded`,
  importedOnly: $localize`Imported only`,
  outcome: $localize`Outcome`,
  anyOutcome: $localize`Any outcome`,
  failedTurnsOnly: $localize`Failed turns only`,
  successfulTurnsOnly: $localize`Successful turns only`,
  clearFilters: $localize`Clear filters`,
  caller: $localize`:the key that launched a session:Caller`,
  to: $localize`To`,
};

/** Local `YYYY-MM-DDTHH:mm` for a datetime-local input, from an ISO time. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** An ISO time from a datetime-local value (read as local time), or null when empty or invalid. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** The filter controls; a dumb component: the page owns the state (in the URL). */
@Component({
  selector: 'app-filter-bar',
  imports: [MatFormFieldModule, MatSelectModule, MatInputModule, MatButtonModule],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <div class="filters" role="group" [attr.aria-label]="t.filters">
      @for (field of fields(); track field.key) {
        <mat-form-field appearance="outline" subscriptSizing="dynamic">
          <mat-label>{{ field.label }}</mat-label>
          <mat-select
            multiple
            [value]="field.selected"
            (valueChange)="setList(field.key, $event)"
            [attr.data-filter]="field.key"
          >
            @for (option of field.options; track option) {
              <mat-option [value]="option">{{ option }}</mat-option>
            } @empty {
              <mat-option disabled>{{ t.noValueInThis }}</mat-option>
            }
          </mat-select>
        </mat-form-field>
      }
      @if (callers().length > 0) {
        <mat-form-field appearance="outline" subscriptSizing="dynamic">
          <mat-label>{{ t.caller }}</mat-label>
          <mat-select
            multiple
            [value]="filter().caller"
            (valueChange)="update({ caller: $event })"
            data-filter="caller"
          >
            @for (caller of callers(); track caller.id) {
              <mat-option [value]="caller.id">{{ caller.name }}</mat-option>
            }
          </mat-select>
        </mat-form-field>
      }
      <mat-form-field appearance="outline" subscriptSizing="dynamic" class="period">
        <mat-label>{{ t.period }}</mat-label>
        <mat-select
          [value]="filter().period"
          (valueChange)="setPeriod($event)"
          data-filter="period"
        >
          @for (period of periods; track period.value) {
            <mat-option [value]="period.value">{{ period.label }}</mat-option>
          }
        </mat-select>
      </mat-form-field>
      @if (filter().period === 'custom') {
        <mat-form-field appearance="outline" subscriptSizing="dynamic" class="when">
          <mat-label>{{ t.from }}</mat-label>
          <input
            matInput
            type="datetime-local"
            [value]="fromLocal()"
            (change)="setBound('from', $event)"
          />
        </mat-form-field>
        <mat-form-field appearance="outline" subscriptSizing="dynamic" class="when">
          <mat-label>{{ t.to }}</mat-label>
          <input
            matInput
            type="datetime-local"
            [value]="toLocal()"
            (change)="setBound('to', $event)"
          />
        </mat-form-field>
      }
      <mat-form-field appearance="outline" subscriptSizing="dynamic">
        <mat-label>{{ t.importedTurns }}</mat-label>
        <mat-select
          [value]="filter().origin"
          (valueChange)="update({ origin: $event })"
          data-filter="imported"
        >
          <mat-option value="">{{ t.included }}</mat-option>
          <mat-option value="relais">{{ t.excluded }}</mat-option>
          <mat-option value="imported">{{ t.importedOnly }}</mat-option>
        </mat-select>
      </mat-form-field>
      <mat-form-field appearance="outline" subscriptSizing="dynamic">
        <mat-label>{{ t.outcome }}</mat-label>
        <mat-select
          [value]="filter().error"
          (valueChange)="update({ error: $event })"
          data-filter="error"
        >
          <mat-option value="">{{ t.anyOutcome }}</mat-option>
          <mat-option value="yes">{{ t.failedTurnsOnly }}</mat-option>
          <mat-option value="no">{{ t.successfulTurnsOnly }}</mat-option>
        </mat-select>
      </mat-form-field>
      @if (filtered()) {
        <button mat-button type="button" (click)="filterChange.emit(empty)">
          {{ t.clearFilters }}
        </button>
      }
    </div>
  `,
  styles: `
    .filters {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 0.75rem;
      margin-bottom: 1rem;
    }
    mat-form-field {
      width: 11rem;
    }
    mat-form-field.when {
      width: 16rem;
    }
    /* Its choices are the longest words of the bar ('30 derniers jours'). */
    mat-form-field.period {
      width: 13rem;
    }
  `,
})
export class FilterBar {
  protected readonly t = TEXT;
  readonly filter = input.required<FilterState>();
  readonly options = input.required<FilterOptions>();
  /** The caller keys whose sessions can be chosen (their id is the filter's value). */
  readonly callers = input<readonly { id: string; name: string }[]>([]);
  readonly filterChange = output<FilterState>();

  protected readonly periods = PERIODS;
  protected readonly empty = EMPTY_FILTER;
  protected readonly filtered = computed(() => isFiltered(this.filter()));
  protected readonly fromLocal = computed(() => toLocalInput(this.filter().from));
  protected readonly toLocal = computed(() => toLocalInput(this.filter().to));

  /** Selected values stay listed even when the period no longer holds them. */
  protected readonly fields = computed(() => {
    const filter = this.filter();
    const options = this.options();
    return LIST_KEYS.map((key) => ({
      key,
      label: LABELS[key],
      selected: filter[key],
      options: [...new Set([...options[key], ...filter[key]])].sort(),
    }));
  });

  protected setList(key: ListKey, values: string[]): void {
    this.update({ [key]: values });
  }

  protected setPeriod(period: Period): void {
    if (period !== 'custom') {
      this.update({ period, from: null, to: null });
      return;
    }
    // A custom period starts as the last 7 days, to be narrowed from there.
    const now = Date.now();
    this.update({
      period,
      from: this.filter().from ?? new Date(now - 7 * 86_400_000).toISOString(),
      to: this.filter().to ?? new Date(now).toISOString(),
    });
  }

  protected setBound(bound: 'from' | 'to', event: Event): void {
    const value = (event.target as HTMLInputElement).value;
    this.update({ [bound]: fromLocalInput(value) });
  }

  protected update(change: Partial<FilterState>): void {
    this.filterChange.emit({ ...this.filter(), ...change });
  }
}
