/**
 * A small TCP load balancer for running several Keelson replicas on one machine: every new client connection
 * goes to the next backend in round-robin order; a backend that refuses the connection (or does not accept
 * it within `connectTimeoutMs`) is skipped and the next one tried, so clients only fail when every backend
 * is down. Bytes are passed through untouched (TLS ends at the replica, which is what clients verify), and
 * each side's end or reset is passed on to the other, so a replica that ends a watch cleanly ends it cleanly
 * for the client too.
 *
 * Used by `scripts/local-cluster.ts` and the HA fault tests; not by the server itself.
 */
import net from 'node:net';

export interface Backend {
  readonly host: string;
  readonly port: number;
}

export interface TcpLoadBalancerOptions {
  readonly backends: readonly Backend[];
  /** Listen address (default 127.0.0.1) and port (default 0: any free port). */
  readonly host?: string;
  readonly port?: number;
  /** How long one backend may take to accept before the next is tried (default 1 s). */
  readonly connectTimeoutMs?: number;
}

export interface TcpLoadBalancer {
  readonly host: string;
  readonly port: number;
  /** Connections currently open, per backend `host:port`. */
  openConnections(): Map<string, number>;
  /** Replaces the backend list (new connections only). */
  setBackends(backends: readonly Backend[]): void;
  /** Stops listening and closes every open connection. */
  close(): Promise<void>;
}

const key = (b: Backend): string => `${b.host}:${b.port}`;

/** Connects to `b`, resolving with the socket once connected; rejects on refusal, error or timeout. */
function connect(b: Backend, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: b.host, port: b.port, allowHalfOpen: true });
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error(`connect to ${key(b)} timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    s.once('connect', () => {
      clearTimeout(timer);
      s.removeAllListeners('error');
      resolve(s);
    });
    s.once('error', (err) => {
      clearTimeout(timer);
      s.destroy();
      reject(err);
    });
  });
}

/** Passes bytes both ways; an end is passed on as an end, an error or reset as a reset. */
function splice(client: net.Socket, upstream: net.Socket): void {
  client.setNoDelay(true);
  upstream.setNoDelay(true);
  client.pipe(upstream);
  upstream.pipe(client);
  client.on('error', () => upstream.resetAndDestroy());
  upstream.on('error', () => client.resetAndDestroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
}

export async function startTcpLoadBalancer(opts: TcpLoadBalancerOptions): Promise<TcpLoadBalancer> {
  let backends = [...opts.backends];
  const connectTimeoutMs = opts.connectTimeoutMs ?? 1000;
  let next = 0;
  const open = new Map<string, number>();
  const sockets = new Set<net.Socket>();

  const track = (s: net.Socket): void => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };

  // Half-open on both sides: a client that half-closes still gets the whole answer.
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    track(client);
    client.on('error', () => client.destroy());
    // Bytes the client sends while a backend is being picked stay buffered in the paused socket.
    client.pause();
    void (async () => {
      const order = backends.length;
      for (let i = 0; i < order && !client.destroyed; i++) {
        const b = backends[next++ % backends.length]!;
        let upstream: net.Socket;
        try {
          upstream = await connect(b, connectTimeoutMs);
        } catch {
          continue; // refused or unreachable: try the next backend
        }
        if (client.destroyed) {
          upstream.destroy();
          return;
        }
        track(upstream);
        const k = key(b);
        open.set(k, (open.get(k) ?? 0) + 1);
        upstream.once('close', () => open.set(k, (open.get(k) ?? 1) - 1));
        client.removeAllListeners('error');
        splice(client, upstream);
        client.resume();
        return;
      }
      client.resetAndDestroy();
    })();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  const addr = server.address() as net.AddressInfo;
  return {
    host: addr.address,
    port: addr.port,
    openConnections: () => new Map(open),
    setBackends: (b) => {
      backends = [...b];
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
