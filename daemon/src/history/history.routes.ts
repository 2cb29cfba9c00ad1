import { ImportReport } from '../../../contract/api.js';
import { IdParams, type RouteTable } from '../http/route.js';

export interface HistoryRouteDeps {
  rescan: (subscriptionId: string) => Promise<ImportReport>;
}

export function historyRoutes(table: RouteTable, deps: HistoryRouteDeps): void {
  table.add({
    method: 'POST',
    url: '/api/subscriptions/:id/import',
    tag: 'subscriptions',
    summary:
      "Rescan the subscription's own transcripts (conversations run outside Relais) and answer with counts",
    errors: [404],
    params: IdParams,
    response: ImportReport,
    handler: ({ params }) => deps.rescan(params.id),
  });
}
