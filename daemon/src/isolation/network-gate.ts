import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';

/** How long an idle keep-alive connection to the gate is kept. */
const IDLE_CONNECTION_MS = 10 * 60_000;
/**
 * Connections one gate holds at once (the daemon's file descriptors): a package manager opens tens;
 * a tool opening thousands, or keeping refused ones idle, gets the rest closed.
 */
export const MAX_GATE_CONNECTIONS = 256;
/** How long "Allow" on a network prompt opens that host: a command's burst of connections. */
const ALLOWED_FOR_MS = 60_000;
/** Host names and ports as a proxy request may carry them; anything else is refused unasked. */
const HOST = /^[A-Za-z0-9.-]{1,253}$|^\[[0-9A-Fa-f:.]{2,45}\]$/;

export type NetworkAsk = (host: string, port: number) => Promise<boolean>;

/**
 * The HTTP proxy a session's sandboxed commands must use (Claude Code's `sandbox.network.httpProxyPort`;
 * the sandbox has no other way out). A destination not allowed yet becomes a prompt in the Inbox;
 * refused, the connection is answered 403 and the command fails.
 */
export class NetworkGate {
  private readonly server: Server;
  private readonly allowedUntil = new Map<string, number>();
  private readonly asking = new Map<string, Promise<boolean>>();
  private ask: NetworkAsk = () => Promise.resolve(false);

  /** A gate listening on a free loopback port; nothing passes until `bind` gives it a session. */
  static async open(): Promise<NetworkGate> {
    const gate = new NetworkGate();
    await new Promise<void>((resolve, reject) => {
      gate.server.once('error', reject);
      gate.server.listen(0, '127.0.0.1', resolve);
    });
    return gate;
  }

  /**
   * A gate on a Unix socket (for a network namespace of its own, bridged by socat); the path is
   * known at once, and the socket exists before any command can connect.
   */
  static onSocket(path: string, ask: NetworkAsk, preallowed: readonly string[]): NetworkGate {
    const gate = new NetworkGate();
    gate.bind(ask);
    for (const key of preallowed) gate.allowedUntil.set(key, Infinity);
    gate.server.listen(path);
    return gate;
  }

  get port(): number {
    const address = this.server.address();
    if (!address || typeof address === 'string')
      throw new Error('the network gate is not listening');
    return address.port;
  }

  /** Whom to ask about a new destination: the session's permission gate. */
  bind(ask: NetworkAsk): void {
    this.ask = ask;
  }

  private constructor() {
    // Idle keep-alive connections stay for minutes: a tool's HTTP client reuses its connection to
    // the gate after however long the command paused; Node's default (5 s) races that reuse.
    this.server = createServer({ keepAliveTimeout: IDLE_CONNECTION_MS }, (req, res) => {
      let target: URL;
      try {
        target = new URL(req.url ?? '');
      } catch {
        res.writeHead(400).end('Relais: a proxy request names an absolute URL');
        return;
      }
      const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
      void this.allowed(target.hostname, port).then((ok) => {
        if (!ok) {
          res.writeHead(403).end(`Relais: the connection to ${target.hostname} was refused`);
          return;
        }
        const upstream = httpRequest(
          {
            host: target.hostname,
            port,
            method: req.method,
            path: `${target.pathname}${target.search}`,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => res.writeHead(502).end());
        req.pipe(upstream);
      });
    });
    this.server.maxConnections = MAX_GATE_CONNECTIONS;
    this.server.on('connect', (req, socket: Socket, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      const match = /^(.+):(\d{1,5})$/.exec(req.url ?? '');
      if (!match) {
        socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
        return;
      }
      const [host, port] = [match[1]!, Number(match[2])];
      void this.allowed(host, port).then((ok) => {
        if (!ok) {
          socket.end('HTTP/1.1 403 Forbidden\r\n\r\nRelais: the connection was refused\n');
          return;
        }
        const upstream = connect(port, host.replace(/^\[|\]$/g, ''), () => {
          socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          upstream.write(head);
          upstream.pipe(socket);
          socket.pipe(upstream);
        });
        upstream.on('error', () => socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
      });
    });
  }

  close(): void {
    this.server.close();
    this.server.closeAllConnections();
  }

  /** One prompt per destination at a time; an allowed destination stays open a short while. */
  private allowed(host: string, port: number): Promise<boolean> {
    if (!HOST.test(host) || port < 1 || port > 65_535) return Promise.resolve(false);
    const key = `${host.toLowerCase()}:${port}`;
    if ((this.allowedUntil.get(key) ?? 0) > Date.now()) return Promise.resolve(true);
    let pending = this.asking.get(key);
    if (!pending) {
      pending = this.ask(host.toLowerCase(), port)
        .catch(() => false)
        .then((ok) => {
          this.asking.delete(key);
          if (ok) this.allowedUntil.set(key, Date.now() + ALLOWED_FOR_MS);
          return ok;
        });
      this.asking.set(key, pending);
    }
    return pending;
  }
}

/**
 * Gates opened ahead of time: a launch is synchronous and a server learns its port only once
 * listening. Without one ready (a burst of launches), a session's commands get no network at all.
 */
export class NetworkGatePool {
  private readonly ready: NetworkGate[] = [];
  private opening = 0;
  private closed = false;

  constructor(private readonly size = 4) {
    this.refill();
  }

  take(): NetworkGate | null {
    const gate = this.ready.shift() ?? null;
    this.refill();
    return gate;
  }

  close(): void {
    this.closed = true;
    for (const gate of this.ready.splice(0)) gate.close();
  }

  private refill(): void {
    while (!this.closed && this.ready.length + this.opening < this.size) {
      this.opening++;
      void NetworkGate.open().then(
        (gate) => {
          this.opening--;
          if (this.closed) gate.close();
          else this.ready.push(gate);
        },
        () => this.opening--,
      );
    }
  }
}
