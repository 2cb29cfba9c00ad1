import type { DemoServices } from '../daemon/src/plugins/demo.js';
import { relaisPlugin } from '../daemon/src/plugins/plugin.js';
import { startDemoModel } from './demo-model/server.js';
import { DEMO_METER, startQuotaEndpoint } from './quota-endpoint/server.js';

/**
 * `npm start`'s demo subscription: the scripted model and its usage endpoint for each URL not
 * given, the endpoint's windows moving with the model's answers when both are this daemon's.
 * Decorates `demo` with the URLs; stops both when the daemon closes (after the agents, which
 * close first: plugins close in the reverse order of their registration).
 */
export const demoPlugin = relaisPlugin<DemoServices>('relais-demo', [], async (app, given) => {
  const model = given.modelUrl ? null : await startDemoModel();
  const quota = given.quotaUrl ? null : await startQuotaEndpoint({ meter: DEMO_METER });
  const unmeter = model && quota ? model.onUsage((usage) => quota.consume(usage)) : null;
  app.decorate<DemoServices>('demo', {
    modelUrl: given.modelUrl ?? model!.url,
    quotaUrl: given.quotaUrl ?? quota!.url,
  });
  app.addHook('onClose', async () => {
    unmeter?.();
    await quota?.close();
    await model?.close();
  });
});
