import type { FastifyInstance, FastifyPluginAsync } from 'fastify';

/** Where the demo subscription's scripted services answer: a model and its usage endpoint. */
export interface DemoServices {
  /** Base URL of the scripted model (Messages for Claude, Responses for Codex). */
  modelUrl: string | null;
  /** Base URL of the scripted usage endpoint the quota service polls for the demo subscription. */
  quotaUrl: string | null;
}

/**
 * The scripted services sit with the test fakes (fakes/demo-plugin.ts), outside the production
 * import graph: this file names them by a computed path, loaded only when one of them is wanted.
 */
const DEMO_PLUGIN = new URL('../../../fakes/demo-plugin.js', import.meta.url);

/**
 * The demo services: the given URLs, and for each one missing (no RELAIS_DEMO_MODEL_URL, no
 * RELAIS_QUOTA_DEMO_URL) the scripted one, started by a Fastify plugin that stops it on close.
 */
export async function registerDemo(
  app: FastifyInstance,
  given: DemoServices,
): Promise<DemoServices> {
  if (given.modelUrl && given.quotaUrl) return given;
  const module = (await import(DEMO_PLUGIN.href)) as {
    demoPlugin: FastifyPluginAsync<DemoServices>;
  };
  await app.register(module.demoPlugin, given);
  return app.getDecorator<DemoServices>('demo');
}
