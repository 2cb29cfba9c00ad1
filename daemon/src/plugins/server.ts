import { installCompression } from '../http/compression.js';
import { installErrorHandling } from '../http/error-handler.js';
import { installGuards } from '../http/guards.js';
import { installConsole } from '../http/static-console.js';
import { relaisPlugin } from './plugin.js';

/**
 * The HTTP server around the routes: errors, the key and origin guards (the owner's key or a
 * caller key with the route's scope), compression, the console.
 */
export const serverPlugin = relaisPlugin(
  'relais-server',
  [
    'relais-api',
    'relais-quotas',
    'relais-usage',
    'relais-history',
    'relais-metrics',
    'relais-keys',
  ],
  async (app) => {
    const { config, apiKey, routes } = app.core;
    installErrorHandling(app);
    installGuards(app, {
      apiKey,
      port: () => app.core.port(),
      devOrigins: config.devOrigins,
      callerKey: app.keys.authenticate,
    });
    await installCompression(app);
    routes.register(app, app.keys.confine);
    installConsole(app, config.consoleDir);
  },
);
