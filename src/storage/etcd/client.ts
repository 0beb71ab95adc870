/**
 * Builds the etcd3 client the store uses.
 *
 * Why the fault handling is replaced: etcd3's defaults retry failed calls three times and open a per-host
 * circuit breaker for 5 s after three consecutive failures. Retrying a guarded write hides whether it
 * committed, and the breaker keeps every call (and `/readyz`) failing for seconds after etcd is back. The
 * store wants each call to go out once and fail fast with a clear error; the caller (registry, watch loop)
 * decides about retries.
 *
 * With several servers, a member that just failed with a connection error is skipped for
 * `HOST_DOWN_MS` (etcd3 then picks another member for the next calls); after that it is tried again. A
 * member is never skipped while every member is (MemberBreakers). With one server there is nothing to fail
 * over to, so calls always go out.
 */
import { readFile } from 'node:fs/promises';
import { Etcd3, isRecoverableError, type IOptions } from 'etcd3';
import { StorageError } from '../interface.ts';

export interface EtcdClientOptions {
  readonly servers: readonly string[];
  readonly caFile?: string;
  readonly certFile?: string;
  readonly keyFile?: string;
  /** Deadline for every unary call (default 15 s). Watches have none. */
  readonly requestTimeoutMs?: number;
}

type Policy = NonNullable<NonNullable<IOptions['faultHandling']>['global']>;

/** A policy that just runs the call: no retry, no breaker. etcd3 only ever calls `execute`. */
function passThrough(): Policy {
  const policy = {
    // async: a synchronous throw from `fn` must become a rejection (etcd3's markFailed relies on `.catch`).
    async execute<T>(fn: (ctx: { signal: AbortSignal }) => PromiseLike<T> | T): Promise<T> {
      return await fn({ signal: new AbortController().signal });
    },
  };
  return policy as unknown as Policy;
}

/** How long a member that failed with a connection error is skipped when others are configured. */
export const HOST_DOWN_MS = 1000;

/** Thrown (without calling etcd) for a member that is being skipped; etcd3 then tries the next member. */
export class EtcdHostSkippedError extends Error {
  override name = 'EtcdHostSkippedError';
  constructor(host: string) {
    super(`etcd member ${host} is skipped for ${HOST_DOWN_MS} ms after a connection failure`);
  }
}

/**
 * A failure that says the member could not be reached. etcd's own answers ("etcdserver: no leader",
 * "etcdserver: leader changed", both gRPC UNAVAILABLE) come from a reachable member during an election:
 * skipping it would only leave fewer members to try once a leader is elected.
 */
export function isConnectionFailure(err: unknown): boolean {
  return err instanceof Error && isRecoverableError(err) && !err.message.includes('etcdserver:');
}

/**
 * The members' skip windows. A member is skipped only while another one is not: when every member failed
 * recently (all of them restarting, or a cluster-wide hiccup), calls go out again rather than failing on the
 * client's own bookkeeping.
 */
export class MemberBreakers {
  private readonly downUntil = new Map<string, number>();

  constructor(private readonly hosts: readonly string[], private readonly now: () => number = Date.now) {}

  skipped(host: string): boolean {
    const t = this.now();
    if ((this.downUntil.get(host) ?? 0) <= t) return false;
    return this.hosts.some((h) => (this.downUntil.get(h) ?? 0) <= t);
  }

  failed(host: string, err: unknown): void {
    if (isConnectionFailure(err)) this.downUntil.set(host, this.now() + HOST_DOWN_MS);
  }

  /** etcd3's per-member policy: run the call unless this member is skipped. */
  policy(host: string): Policy {
    const policy = {
      execute: async <T>(fn: (ctx: { signal: AbortSignal }) => PromiseLike<T> | T): Promise<T> => {
        if (this.skipped(host)) throw new EtcdHostSkippedError(host);
        try {
          return await fn({ signal: new AbortController().signal });
        } catch (err) {
          this.failed(host, err);
          throw err;
        }
      },
    };
    return policy as unknown as Policy;
  }
}

/** Reads one of the TLS files, naming the option in the error (the CLI shows it as is). */
async function readPem(option: string, path: string | undefined): Promise<Buffer | undefined> {
  if (path === undefined) return undefined;
  try {
    return await readFile(path);
  } catch (err) {
    throw new StorageError(`etcd: cannot read ${option} ${path}: ${(err as Error).message}`);
  }
}

export async function createEtcdClient(opts: EtcdClientOptions): Promise<Etcd3> {
  if (opts.servers.length === 0) throw new StorageError('etcd: no servers given');
  if ((opts.certFile === undefined) !== (opts.keyFile === undefined)) {
    throw new StorageError('etcd: certFile and keyFile must be given together');
  }
  const tls = opts.caFile !== undefined || opts.certFile !== undefined;
  const credentials = tls
    ? {
        // Without a CA file grpc verifies the server against the system roots; etcd3's type wants a Buffer.
        rootCertificate: (await readPem('caFile', opts.caFile)) as Buffer,
        privateKey: await readPem('keyFile', opts.keyFile),
        certChain: await readPem('certFile', opts.certFile),
      }
    : undefined;
  const timeout = opts.requestTimeoutMs ?? 15_000;
  // etcd3 names each member by its entry in `hosts`.
  const breakers = opts.servers.length > 1 ? new MemberBreakers(opts.servers) : undefined;
  return new Etcd3({
    hosts: [...opts.servers],
    ...(credentials ? { credentials } : {}),
    faultHandling: {
      global: passThrough(),
      host: opts.servers.length > 1 ? (host: string) => breakers!.policy(host) : () => passThrough(),
    },
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + timeout }),
    grpcOptions: {
      // Reconnect quickly after etcd comes back (grpc's default backoff grows to 120 s).
      'grpc.max_reconnect_backoff_ms': 1000,
      'grpc.initial_reconnect_backoff_ms': 100,
      // Large objects come back in ranges; etcd's own limit is far below this.
      'grpc.max_receive_message_length': 2 ** 31 - 1,
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_timeout_ms': 10_000,
    },
  });
}
