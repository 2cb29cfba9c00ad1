import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import type { EChartsCoreOption } from 'echarts/core';
import { NgxEchartsDirective } from 'ngx-echarts';
import { StorageReport } from '../../../contract/operations';
import { Theme } from '../core/theme';
import { formatBytes } from '../shared/bytes';
import { CATEGORY_LABELS } from './storage-labels';

/** The categories as a donut; the page's table carries the same numbers as text. */
@Component({
  selector: 'app-category-chart',
  imports: [NgxEchartsDirective],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `<div
    echarts
    class="chart"
    [options]="options()"
    role="img"
    [attr.aria-label]="label()"
  ></div>`,
  styles: `
    .chart {
      width: 100%;
      height: 260px;
    }
  `,
})
export class CategoryChart {
  private readonly theme = inject(Theme);
  readonly categories = input.required<StorageReport['categories']>();

  protected readonly label = computed(() => {
    const categories = this.categories()
      .map((c) => `${CATEGORY_LABELS[c.category]} ${formatBytes(c.bytes)}`)
      .join(', ');
    return $localize`Storage by category: ${categories}:categories:`;
  });

  protected readonly options = computed<EChartsCoreOption>(() => {
    const dark = this.theme.isDark();
    const text = dark ? '#e2e2e9' : '#1a1b20';
    return {
      backgroundColor: 'transparent',
      tooltip: { trigger: 'item', valueFormatter: (value: unknown) => formatBytes(Number(value)) },
      legend: { orient: 'vertical', right: 0, top: 'middle', textStyle: { color: text } },
      series: [
        {
          type: 'pie',
          radius: ['45%', '75%'],
          center: ['35%', '50%'],
          label: { show: false },
          itemStyle: { borderColor: dark ? '#121316' : '#ffffff', borderWidth: 2 },
          data: this.categories().map((c) => ({
            name: CATEGORY_LABELS[c.category],
            value: c.bytes,
          })),
        },
      ],
    };
  });
}
