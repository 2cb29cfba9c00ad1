import type { FastifyPluginAsync } from 'fastify';

/**
 * A Fastify plugin that shares the root instance (its decorators and hooks are the daemon's, not
 * encapsulated) and declares the plugins it needs: Fastify refuses to register it before them.
 * The same metadata fastify-plugin writes, without the extra dependency.
 */
export function relaisPlugin<Options extends object = Record<never, never>>(
  name: string,
  dependencies: readonly string[],
  plugin: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  return Object.assign(plugin, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: name,
    [Symbol.for('plugin-meta')]: { name, dependencies: [...dependencies], fastify: '5.x' },
  });
}
