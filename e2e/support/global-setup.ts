import { startDaemon } from './daemon';

/** One real daemon for the run; tests read its printed URL (with the key) from the environment. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  // Journeys launch many sessions in a few minutes; the brake has its own journey on its own daemon.
  const daemon = await startDaemon({ env: { RELAIS_LAUNCH_BURST: '1000' } });
  process.env['RELAIS_E2E_URL'] = daemon.url;
  process.env['RELAIS_E2E_BASE'] = daemon.base;
  process.env['RELAIS_E2E_KEY'] = daemon.key;
  // Journeys launch through the API, then open the page: as on a real machine, a console is
  // already listening somewhere, so a prompt is not refused for want of anyone to answer it.
  const listening = new AbortController();
  const stream = await fetch(`${daemon.base}/api/stream`, {
    headers: { authorization: `Bearer ${daemon.key}` },
    signal: listening.signal,
  });
  void stream.body?.pipeTo(new WritableStream()).catch(() => undefined);
  return async () => {
    listening.abort();
    await daemon.stop();
  };
}
