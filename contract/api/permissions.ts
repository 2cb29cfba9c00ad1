/** Permission prompts, their decisions, and the hosts allowed for good. */
import * as z from 'zod';
import { isoTime, id } from './fields.js';

export const PermissionState = z.enum(['pending', 'allowed', 'denied', 'cancelled']);
export type PermissionState = z.infer<typeof PermissionState>;

export const PermissionRequest = z.object({
  id,
  session_id: z.string(),
  tool_name: z.string(),
  tool_use_id: z.string().nullable(),
  input: z.record(z.string(), z.unknown()),
  description: z.string().nullable(),
  blocked_path: z.string().nullable(),
  is_question: z.boolean(),
  state: PermissionState,
  created_at: isoTime,
  expires_at: isoTime,
  decided_at: isoTime.nullable(),
  decided_by: z.string().nullable(),
  scope: z.enum(['once', 'session', 'always']).nullable(),
  message: z.string().nullable(),
});
export type PermissionRequest = z.infer<typeof PermissionRequest>;

export const PermissionListQuery = z
  .object({
    state: PermissionState.optional(),
    session: z.string().optional(),
    caller: z.string().max(200).optional().describe('Only prompts of sessions this key launched'),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();

export const PermissionDecisionBody = z
  .object({
    decision: z.enum(['allow', 'deny']),
    scope: z
      .enum(['once', 'session', 'always'])
      .default('once')
      .describe(
        'always: a Network prompt only, allowed: its host and port pass for every session from now on',
      ),
    message: z.string().max(2000).optional(),
    answers: z
      .record(z.string(), z.string())
      .optional()
      .describe('AskUserQuestion: question text → chosen label(s)'),
  })
  .strict();
export type PermissionDecisionBody = z.input<typeof PermissionDecisionBody>;

/** A destination a person allowed "always": a command of any session reaches it without a prompt. */
export const AllowedHost = z.object({
  host: z.string(),
  port: z.number().int(),
  created_at: isoTime,
  decided_by: z.string().describe('Who answered the prompt (the console, the terminal…)'),
});
export type AllowedHost = z.infer<typeof AllowedHost>;

export const AllowedHostParams = z
  .object({
    host: z.string().max(255),
    port: z.coerce.number().int().min(1).max(65_535),
  })
  .strict();
