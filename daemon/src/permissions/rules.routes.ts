import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  AuditExportQuery,
  AuditPage,
  AuditQuery,
  RuleCheckBody,
  RuleCheckResult,
  RuleSetBody,
  RulesView,
  type Rule,
} from '../../../contract/permissions.js';
import { apiError } from '../http/errors.js';
import { appFromHeader } from '../http/app-header.js';
import type { RouteTable } from '../http/route.js';
import { csvRecord } from '../usage/export.js';
import { toAuditEntry, type AuditLog } from './audit-log.js';
import { engineContext, type EngineSetting } from './engine-policy.js';
import { decide, gateReport } from './engine/index.js';

export interface RulesDeps {
  engine: EngineSetting;
  audit: AuditLog;
  source: () => 'file' | 'default';
  onSaved: () => void;
}

const AUDIT_COLUMNS = [
  'id',
  'time',
  'kind',
  'session_id',
  'subscription_id',
  'tool_name',
  'input_summary',
  'step',
  'rule',
  'decision',
  'decided_by',
  'detail',
] as const;

/** The rules in force, and the audit trail of what they decided. */
export function rulesRoutes(table: RouteTable, deps: RulesDeps): void {
  const tag = 'rules';
  table.add({
    method: 'GET',
    url: '/api/rules',
    tag,
    summary: 'The rules in force (deny, then ask, then allow; first match decides)',
    response: RulesView,
    handler: () => rulesView(deps),
  });
  table.add({
    method: 'PUT',
    url: '/api/rules',
    tag,
    summary:
      'Replace the rules; an invalid set is refused with its line and reason, the previous rules stay',
    body: RuleSetBody,
    response: RulesView,
    errors: [409],
    handler: ({ body, request }) => saveRules(deps, body, appFromHeader(request, 'api')),
  });
  table.add({
    method: 'POST',
    url: '/api/rules/check',
    tag,
    summary:
      'Would this request be allowed? The same decision the sessions use, with no other input',
    body: RuleCheckBody,
    response: RuleCheckResult,
    handler: ({ body }) => {
      const decision = decide(body, engineContext(deps.engine));
      return { ...decision, report: gateReport(decision) };
    },
  });
  auditRoutes(table, deps.audit);
}

function rulesView(deps: RulesDeps): RulesView {
  return {
    version: deps.engine.store.current.version,
    rules: deps.engine.store.current.rules as Rule[],
    file_path: deps.engine.store.filePath,
    source: deps.source(),
  };
}

function saveRules(deps: RulesDeps, body: z.output<typeof RuleSetBody>, app: string): RulesView {
  const current = deps.engine.store.current.version;
  // Two editors (two tabs, a script and the console): the later one, made on an older set,
  // would undo the first without a word.
  if (body.version !== undefined && body.version !== current)
    throw apiError(
      'rules_changed',
      `The rules are at version ${current}, not ${body.version}: read them again, then make the change.`,
      { version: current },
    );
  const saved = deps.engine.store.save(
    JSON.stringify({ version: deps.engine.store.current.version, rules: body.rules }, null, 2),
  );
  if (!saved.ok)
    throw apiError(
      'invalid_rules',
      `Rules refused at line ${saved.line} (${saved.path || 'file'}): ${saved.reason}`,
      { line: saved.line, path: saved.path, reason: saved.reason },
    );
  deps.audit.record({
    kind: 'rules_change',
    decision: 'saved',
    decided_by: app,
    detail: saved.diff.summary,
  });
  deps.onSaved();
  return rulesView(deps);
}

function auditRoutes(table: RouteTable, audit: AuditLog): void {
  table.add({
    method: 'GET',
    url: '/api/audit',
    tag: 'rules',
    summary: 'The audit trail, newest first: every decision and every rules change',
    query: AuditQuery,
    response: AuditPage,
    handler: ({ query }) => audit.query(query),
  });
  table.add({
    method: 'GET',
    url: '/api/audit/export',
    tag: 'rules',
    summary: 'The filtered audit trail as CSV or JSON, oldest first',
    query: AuditExportQuery,
    stream: { contentType: 'text/csv', line: AuditPage.shape.items.element },
    handler: ({ query, reply }) => writeAuditExport(audit, query, reply),
  });
}

/** Streams the trail, waiting for the socket to drain, so a long trail never sits in memory. */
async function writeAuditExport(
  audit: AuditLog,
  query: z.output<typeof AuditExportQuery>,
  reply: FastifyReply,
): Promise<void> {
  const { format, ...filter } = query;
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type':
      format === 'csv'
        ? 'text/csv; charset=utf-8; header=present'
        : 'application/json; charset=utf-8',
    'content-disposition': `attachment; filename="relais-audit.${format}"`,
    'cache-control': 'no-store',
  });
  let first = true;
  if (format === 'csv') raw.write(csvRecord(AUDIT_COLUMNS));
  else raw.write('[');
  for (const row of audit.iterate(filter)) {
    const entry = toAuditEntry(row);
    const text =
      format === 'csv'
        ? csvRecord(AUDIT_COLUMNS.map((c) => entry[c]))
        : `${first ? '' : ','}\n${JSON.stringify(entry)}`;
    first = false;
    if (!raw.write(text)) await new Promise((resolve) => raw.once('drain', resolve));
  }
  raw.end(format === 'json' ? (first ? ']' : '\n]') : '');
}
