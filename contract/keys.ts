/** Caller keys: one per tool, each with the scopes the owner gave it. Pure zod. */
import * as z from 'zod';
import { humanName } from './names.js';

/**
 * What a route may need (its declaration): `read` its own sessions, `launch`, `steer` its own
 * sessions, `decide` prompts, `metrics`. A route that declares none is the owner's alone.
 */
export const RouteScope = z.enum(['read', 'launch', 'steer', 'decide', 'metrics']);
export type RouteScope = z.infer<typeof RouteScope>;

/**
 * What a key may hold: the route scopes, plus `read:all` (read every session, not only its own)
 * and `decide_own` (answer the prompts of the sessions this same key launched).
 */
export const KeyScope = z.enum([
  'read',
  'read:all',
  'launch',
  'steer',
  'decide',
  'decide_own',
  'metrics',
]);
export type KeyScope = z.infer<typeof KeyScope>;

/** A caller key's name: also the app name of every session it launches. */
export const KeyName = humanName(80);

export const ApiKey = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(KeyScope),
  subscriptions: z
    .array(z.string())
    .describe('Subscriptions its launches may use (with the launch scope)'),
  prefix: z.string().describe('The start of the secret, to recognise it; never enough to use it'),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  last_used_from: z.string().nullable().describe('The address of its last request'),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyCreated = ApiKey.extend({
  secret: z.string().describe('The key itself, shown this once; only its hash is kept'),
});
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;

export const ApiKeyCreate = z
  .object({
    name: KeyName,
    scopes: z.array(KeyScope).max(KeyScope.options.length),
    subscriptions: z.array(z.string().min(1).max(200)).max(100).default([]),
    expires_at: z.iso
      .datetime({ offset: true })
      .nullable()
      .default(null)
      .describe('When the key stops working; null: never'),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.scopes.includes('decide_own') && !body.scopes.includes('decide'))
      ctx.addIssue({ code: 'custom', path: ['scopes'], message: 'decide_own needs decide' });
    if (body.scopes.includes('launch') && body.subscriptions.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['subscriptions'],
        message: 'a key that launches names the subscriptions it may use',
      });
  });
export type ApiKeyCreate = z.input<typeof ApiKeyCreate>;
