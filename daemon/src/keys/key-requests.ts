import type { ServerResponse } from 'node:http';

/**
 * The answers still open for each caller key (live streams above all), so that revoking a key
 * ends them at once instead of at the client's leisure.
 */
export class KeyRequests {
  private readonly open = new Map<string, Set<ServerResponse>>();

  track(keyId: string, response: ServerResponse): void {
    let set = this.open.get(keyId);
    if (!set) this.open.set(keyId, (set = new Set()));
    set.add(response);
    response.once('close', () => {
      set.delete(response);
      if (set.size === 0 && this.open.get(keyId) === set) this.open.delete(keyId);
    });
  }

  count(keyId: string): number {
    return this.open.get(keyId)?.size ?? 0;
  }

  /** Ends every open answer of the key: a stream gets its last chunk, then the socket closes. */
  endAll(keyId: string): number {
    const set = this.open.get(keyId);
    if (!set) return 0;
    this.open.delete(keyId);
    for (const response of set) {
      if (response.headersSent && !response.writableEnded) {
        response.end(() => response.destroy());
        // A client that stopped reading does not hold the socket open past a second.
        setTimeout(() => response.destroy(), 1000).unref();
      } else response.destroy();
    }
    return set.size;
  }
}
