import { provideZonelessChangeDetection } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { EMPTY_FILTER, FilterState } from './analytics-filter';
import { FilterBar } from './filter-bar';

describe('FilterBar imported turns', () => {
  it('excluding imported turns sets the origin and leaves the app filter alone', async () => {
    TestBed.configureTestingModule({ providers: [provideZonelessChangeDetection()] });
    const fixture = TestBed.createComponent(FilterBar);
    const emitted: FilterState[] = [];
    fixture.componentInstance.filterChange.subscribe((f) => emitted.push(f));
    fixture.componentRef.setInput('filter', { ...EMPTY_FILTER, app: ['console'] });
    fixture.componentRef.setInput('options', {
      agent: [],
      model: [],
      tool: [],
      subscription: [],
      app: ['console', 'imported'],
    });
    fixture.detectChanges();
    const select = fixture.nativeElement.querySelector(
      '[data-filter="imported"] .mat-mdc-select-trigger',
    ) as HTMLElement;
    select.click();
    fixture.detectChanges();
    await fixture.whenStable();
    const excluded = [...document.querySelectorAll<HTMLElement>('mat-option')].find(
      (o) => o.textContent?.trim() === 'Excluded',
    )!;
    excluded.click();
    fixture.detectChanges();
    expect(emitted).toEqual([{ ...EMPTY_FILTER, app: ['console'], origin: 'relais' }]);
  });
});
