import { installKeys } from '../keys/keys-module.js';
import { relaisPlugin } from './plugin.js';

export type Keys = ReturnType<typeof installKeys>;

declare module 'fastify' {
  interface FastifyInstance {
    keys: Keys;
  }
}

/**
 * Caller keys: their table and routes, the guard's check of a presented key and the confinement
 * of each request to what its key may touch; the server plugin wires both into every route.
 */
export const keysPlugin = relaisPlugin(
  'relais-keys',
  ['relais-core', 'relais-permissions', 'relais-subscriptions'],
  async (app) => {
    const { db, routes } = app.core;
    const subscriptions = app.subscriptions.repo;
    const keys = installKeys(
      db,
      routes,
      (id) => subscriptions.get(id) !== null,
      app.permissions.audit,
    );
    app.decorate<Keys>('keys', keys);
  },
);
