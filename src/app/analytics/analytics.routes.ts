import { Routes } from '@angular/router';
import { provideEchartsCore } from 'ngx-echarts';

export const analyticsRoutes: Routes = [
  {
    path: '',
    title: 'Analytics · Relais',
    providers: [
      provideEchartsCore({ echarts: () => import('./echarts-setup').then((m) => m.echarts) }),
    ],
    loadComponent: () => import('./analytics-page').then((m) => m.AnalyticsPage),
  },
];
