import { ImportReport, Session, SessionResume } from '../../../contract/api.js';
import { appFromHeader } from '../http/app-header.js';
import { IdParams, type RouteTable } from '../http/route.js';
import type { SessionManager } from '../sessions/session-manager.js';
import type { SessionRepo } from '../sessions/session-repo.js';
import { resumeImported } from './resume.js';

export interface HistoryRouteDeps {
  rescan: (subscriptionId: string) => Promise<ImportReport>;
  sessions: SessionRepo;
  manager: SessionManager;
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

  table.add({
    method: 'POST',
    url: '/api/sessions/:id/resume',
    tag: 'sessions',
    summary:
      'Continue an imported conversation in a new live session (same subscription, under the permission engine)',
    status: 201,
    errors: [404, 409, 429],
    params: IdParams,
    body: SessionResume,
    response: Session,
    handler: ({ params, body, request }) =>
      resumeImported(deps, params.id, body, body.app ?? appFromHeader(request, 'unknown')),
  });
}
