/**
 * The part of ECharts the Analytics page uses, registered once. Loaded by a dynamic import from
 * the page's chart provider only, with the first chart, so that none of it reaches the page's chunk.
 */
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import langFR from 'echarts/i18n/langFR-obj.js';

echarts.use([
  LineChart,
  BarChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  CanvasRenderer,
]);

// The time axis names months and days in the chart's locale (chart-card.ts picks it).
echarts.registerLocale('FR', langFR);

export { echarts };
