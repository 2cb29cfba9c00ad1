import { startDaemon } from './daemon';

/** One real daemon for the run; tests read its printed URL (with the key) from the environment. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const daemon = await startDaemon();
  process.env['RELAIS_E2E_URL'] = daemon.url;
  process.env['RELAIS_E2E_BASE'] = daemon.base;
  process.env['RELAIS_E2E_KEY'] = daemon.key;
  return () => daemon.stop();
}
