import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRegistry {
  url: string;
  /** The version the registry publishes as latest, per package. */
  latest: Map<string, string>;
  requests: string[];
  close(): Promise<void>;
}

/**
 * A scripted npm registry on loopback, enough for `npm view <pkg> version`: it answers a
 * package document (packument) with `dist-tags.latest` and that version.
 */
export async function startFakeRegistry(): Promise<FakeRegistry> {
  const latest = new Map<string, string>();
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').split('?')[0]!.slice(1));
    requests.push(name);
    const version = latest.get(name);
    if (!version) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'Not found' }));
      return;
    }
    const doc = {
      _id: name,
      name,
      'dist-tags': { latest: version },
      versions: {
        [version]: {
          name,
          version,
          dist: { tarball: `http://127.0.0.1/${name}/-/${version}.tgz`, shasum: '0' },
        },
      },
      time: { [version]: new Date().toISOString() },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    latest,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
