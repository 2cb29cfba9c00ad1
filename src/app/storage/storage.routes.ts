import { Routes } from '@angular/router';
import { provideEchartsCore } from 'ngx-echarts';

export const storageRoutes: Routes = [
  {
    path: '',
    title: 'Storage · Relais',
    providers: [
      provideEchartsCore({ echarts: () => import('./echarts-setup').then((m) => m.echarts) }),
    ],
    loadComponent: () => import('./storage-page').then((m) => m.StoragePage),
  },
];
