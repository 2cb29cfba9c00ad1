/** The subscriptions: an agent account, its models and its settings. */
import * as z from 'zod';
import { isoTime, id } from './fields.js';
import { humanName } from '../names.js';

export const AgentKind = z.enum(['claude', 'codex']);
export type AgentKind = z.infer<typeof AgentKind>;

export const ModelInfo = z.object({
  value: z.string(),
  display_name: z.string(),
  description: z.string().nullable(),
  supported_effort_levels: z.array(z.string()),
});
export type ModelInfo = z.infer<typeof ModelInfo>;

export const Subscription = z.object({
  id,
  name: z.string(),
  agent: AgentKind,
  config_dir: z.string(),
  builtin: z.boolean(),
  account: z.record(z.string(), z.unknown()).nullable(),
  account_key: z.string().nullable().describe('A stable fingerprint of the detected account'),
  models: z.array(ModelInfo),
  detected_at: isoTime.nullable(),
  detect_error: z.string().nullable(),
  shares_account_with: z
    .array(z.string())
    .describe('Ids of other subscriptions on the same account'),
  created_at: isoTime,
  status: z.enum(['active', 'suspended']).describe('Suspended after three failed starts in a row'),
  consecutive_failed_starts: z.number().int(),
  last_error: z.string().nullable().describe("The agent's last error line of a failed start"),
  suspended_at: isoTime.nullable(),
  next_wait_seconds: z.number().int().describe('The wait the next refused launch will suggest'),
});
export type Subscription = z.infer<typeof Subscription>;

export const SubscriptionCreate = z
  .object({
    name: humanName(80),
    agent: AgentKind.default('claude'),
    config_dir: z
      .string()
      .min(1)
      .max(4096)
      .describe('Absolute path of the agent configuration folder'),
  })
  .strict();
export type SubscriptionCreate = z.infer<typeof SubscriptionCreate>;

export const SubscriptionPatch = z
  .object({
    name: humanName(80).optional(),
    config_dir: z.string().min(1).max(4096).optional(),
  })
  .strict();
export type SubscriptionPatch = z.infer<typeof SubscriptionPatch>;
