/** Schemas of the rules, rule check and audit API. Pure zod. */
import * as z from 'zod';
import { PermissionMode } from './api.js';
import { humanName } from './names.js';

const isoTime = z.string().describe('ISO 8601 UTC time with milliseconds');

export const BashRule = z
  .object({
    id: humanName(100),
    kind: z.literal('bash'),
    pattern: z
      .string()
      .min(1)
      .max(2000)
      .describe('JavaScript regular expression, tested against each sub-command'),
    flags: z.string().max(4).optional(),
    action: z.enum(['deny', 'ask', 'allow']),
    reason: z.string().min(1).max(500),
  })
  .strict();

export const PathRule = z
  .object({
    id: humanName(100),
    kind: z.enum(['zero_access', 'read_only', 'no_delete']),
    paths: z.array(z.string().min(1).max(1000)).min(1).max(100),
    action: z.enum(['deny', 'ask']).optional(),
    reason: z.string().min(1).max(500),
  })
  .strict();

export const Rule = z.discriminatedUnion('kind', [BashRule, PathRule]);
export type Rule = z.infer<typeof Rule>;

export const RuleSetBody = z
  .object({
    version: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'The version the change was made on: if the rules were saved since, the set is refused (409 rules_changed)',
      ),
    rules: z.array(z.unknown()).max(1000),
  })
  .strict()
  .describe(
    'The whole rule set; it is validated like the rules file, and the version is bumped on save',
  );

export const RulesView = z.object({
  version: z.number().int(),
  rules: z.array(Rule),
  file_path: z.string(),
  source: z.enum(['file', 'default']),
});
export type RulesView = z.infer<typeof RulesView>;

export const RuleCheckBody = z
  .object({
    tool_name: z.string().min(1).max(200),
    input: z.record(z.string(), z.unknown()),
    cwd: z.string().min(1).max(4096),
    permission_mode: PermissionMode,
  })
  .strict();
export type RuleCheckBody = z.infer<typeof RuleCheckBody>;

export const RuleCheckResult = z.object({
  decision: z
    .enum(['allow', 'ask', 'deny'])
    .describe('allow: no rule objects; ask: a person would be asked'),
  step: z.string(),
  rule: z.string().nullable(),
  reason: z.string(),
  report: z.string().describe('What the agent would be told on a refusal'),
});
export type RuleCheckResult = z.infer<typeof RuleCheckResult>;

export const AuditEntry = z.object({
  id: z.number().int(),
  time: isoTime,
  kind: z
    .enum(['decision', 'rules_change', 'access'])
    .describe('access: a caller key created or revoked, or a change a caller key made'),
  session_id: z.string().nullable(),
  subscription_id: z.string().nullable(),
  tool_name: z.string().nullable(),
  input_summary: z.string().nullable(),
  step: z.string().nullable(),
  rule: z.string().nullable(),
  decision: z.string().describe('allow, deny (decisions) or saved (rules changes)'),
  decided_by: z
    .string()
    .describe('rules, console, timeout, nobody_listening, or who changed the rules'),
  detail: z.string().nullable(),
  key_id: z
    .string()
    .nullable()
    .optional()
    .describe('The caller key that acted (decided_by is its name); null: the owner or Relais'),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditQuery = z
  .object({
    session: z.string().max(200).optional(),
    tool: z.string().max(200).optional(),
    decision: z.enum(['allow', 'deny', 'saved']).optional(),
    kind: z.enum(['decision', 'rules_change', 'access']).optional(),
    from: z.iso.datetime().optional(),
    to: z.iso.datetime().optional(),
    before: z.coerce.number().int().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditExportQuery = AuditQuery.omit({ before: true, limit: true }).extend({
  format: z.enum(['csv', 'json']).default('csv'),
});

export const AuditPage = z.object({
  items: z.array(AuditEntry),
  next_cursor: z.string().nullable(),
});
