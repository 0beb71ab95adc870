/**
 * Replicas that share a store must share their trust material, or the cluster silently splits: a service account
 * token issued by one replica is refused by another, a client certificate one accepts the other rejects. kube-apiserver
 * does not check this; Keelson does at start.
 *
 * Each running replica keeps a record `/registry/apiserver-replicas/<uuid>` with a TTL (renewed like the master
 * leases, deleted on graceful stop) holding SHA-256 fingerprints of its service-account keys and CAs. A starting
 * replica writes its record first, then compares itself with every record written before its own (lower create
 * revision): so of two replicas starting at once, the later one refuses, whatever the timing. Refusals name the
 * mismatch and the other replica.
 *
 * `--etcd-prefix` cannot be checked inside the prefix (replicas with different prefixes never see each other's keys),
 * so on etcd every replica also keeps a key under `/keelson.io/apiserver-prefixes/` (outside any prefix) and a
 * starting replica warns, naming the other live prefixes. A warning, not a refusal: several clusters on one etcd
 * with distinct prefixes is a legitimate setup.
 */
import { createHash, createPublicKey, randomUUID, X509Certificate, type KeyObject } from 'node:crypto';
import { hostname } from 'node:os';
import type { Store } from '../storage/interface.ts';
import { isLoopback } from '../controllers/apiserver/endpoint-reconciler.ts';

export const REPLICA_RECORDS_PREFIX = '/registry/apiserver-replicas/';
/** Outside every `--etcd-prefix`: read and written through a store opened without one. */
export const PREFIX_REGISTRY_ROOT = '/keelson.io/apiserver-prefixes/';

export interface TrustFingerprints {
  /** `sha256:<hex>` of the signing key's SubjectPublicKeyInfo. */
  readonly serviceAccountSigningKey: string;
  /** Every key this replica accepts tokens signed by (includes the signing key). */
  readonly serviceAccountVerifyingKeys: readonly string[];
  /** CAs whose client certificates this replica accepts, sorted. */
  readonly clientCAs: readonly string[];
  /** The CA clients verify this replica's serving certificate with. */
  readonly servingCA: string;
}

export interface ReplicaRecord {
  readonly uid: string;
  readonly hostname: string;
  readonly advertiseAddress: string;
  readonly fingerprints: TrustFingerprints;
}

const sha = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

export function publicKeyFingerprint(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return sha(pub.export({ type: 'spki', format: 'der' }));
}

export function certificateFingerprint(pem: string): string {
  return sha(new X509Certificate(pem).raw);
}

export function trustFingerprints(input: { signingKey: KeyObject; verifyingKeys: readonly KeyObject[]; clientCaPems: readonly string[]; servingCaPem: string }): TrustFingerprints {
  const signing = publicKeyFingerprint(input.signingKey);
  return {
    serviceAccountSigningKey: signing,
    serviceAccountVerifyingKeys: [...new Set([signing, ...input.verifyingKeys.map(publicKeyFingerprint)])].sort(),
    clientCAs: [...new Set(input.clientCaPems.map(certificateFingerprint))].sort(),
    servingCA: certificateFingerprint(input.servingCaPem),
  };
}

const short = (fp: string): string => fp.slice(0, 'sha256:'.length + 16);

/** Why `mine` cannot serve next to `other` (one line per mismatch), or [] when they agree. */
export function trustMismatches(mine: TrustFingerprints, other: TrustFingerprints): string[] {
  const out: string[] = [];
  if (!other.serviceAccountVerifyingKeys.includes(mine.serviceAccountSigningKey)) {
    out.push(`service account signing key differs: this server signs tokens with ${short(mine.serviceAccountSigningKey)}, which the other server does not accept (it signs with ${short(other.serviceAccountSigningKey)})`);
  } else if (!mine.serviceAccountVerifyingKeys.includes(other.serviceAccountSigningKey)) {
    out.push(`service account keys differ: the other server signs tokens with ${short(other.serviceAccountSigningKey)}, which this server does not accept (--service-account-key-file)`);
  }
  const sameClientCAs = mine.clientCAs.length === other.clientCAs.length && mine.clientCAs.every((c, i) => c === other.clientCAs[i]);
  if (!sameClientCAs) {
    out.push(`client CA differs: this server trusts ${mine.clientCAs.map(short).join(', ')}, the other ${other.clientCAs.map(short).join(', ')} (share the data dir's ca.crt/ca.key or --client-ca-file)`);
  }
  if (mine.servingCA !== other.servingCA) {
    out.push(`serving CA differs: clients verify this server with ${short(mine.servingCA)}, the other with ${short(other.servingCA)}`);
  }
  return out;
}

export class ReplicaMismatchError extends Error {}

export interface ReplicaRegistration {
  readonly uid: string;
  stop(): Promise<void>;
}

export interface RegisterReplicaOptions {
  store: Store;
  /** On etcd: a store opened without `--etcd-prefix` for the prefix registry. */
  rootStore?: Store;
  etcdPrefix: string;
  advertiseAddress: string;
  fingerprints: TrustFingerprints;
  ttlSeconds: number;
  renewIntervalMs: number;
  log: (line: string) => void;
}

function describe(r: ReplicaRecord): string {
  const where = isLoopback(r.advertiseAddress) ? `on host ${r.hostname}` : `at ${r.advertiseAddress} (host ${r.hostname})`;
  return `the API server ${where}`;
}

async function putWithTtl(store: Store, key: string, value: Uint8Array, ttlSeconds: number): Promise<number> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const cur = await store.get(key);
    const res = cur ? await store.update(key, value, { expectedModRevision: cur.modRevision, ttlSeconds }) : await store.create(key, value, { ttlSeconds });
    if (res.succeeded) return res.revision;
  }
  throw new Error(`could not write ${key}: it kept changing`);
}

/**
 * Writes this replica's record, refuses (ReplicaMismatchError, after deleting the record) when an earlier live
 * replica's trust material differs, warns about other live etcd prefixes, and keeps the records alive.
 */
export async function registerReplica(o: RegisterReplicaOptions): Promise<ReplicaRegistration> {
  const uid = randomUUID();
  const key = REPLICA_RECORDS_PREFIX + uid;
  const record: ReplicaRecord = { uid, hostname: hostname(), advertiseAddress: o.advertiseAddress, fingerprints: o.fingerprints };
  const value = Buffer.from(JSON.stringify(record));
  await putWithTtl(o.store, key, value, o.ttlSeconds);
  const mine = await o.store.get(key);
  const others = await o.store.range(REPLICA_RECORDS_PREFIX);
  for (const kv of others.items) {
    if (kv.key === key || (mine && kv.createRevision > mine.createRevision)) continue;
    let other: ReplicaRecord;
    try {
      other = JSON.parse(Buffer.from(kv.value).toString('utf8')) as ReplicaRecord;
    } catch {
      continue;
    }
    const problems = trustMismatches(o.fingerprints, other.fingerprints);
    if (problems.length > 0) {
      await o.store.delete(key).catch(() => undefined);
      throw new ReplicaMismatchError(`refusing to start: ${describe(other)} uses the same storage with different trust material, and tokens or certificates of one would be refused by the other: ${problems.join('; ')}`);
    }
  }

  const prefixKey = `${PREFIX_REGISTRY_ROOT}${encodeURIComponent(o.etcdPrefix)}/${uid}`;
  if (o.rootStore) {
    await putWithTtl(o.rootStore, prefixKey, Buffer.from(JSON.stringify({ prefix: o.etcdPrefix, hostname: record.hostname, advertiseAddress: o.advertiseAddress })), o.ttlSeconds);
    const live = await o.rootStore.range(PREFIX_REGISTRY_ROOT);
    const prefixes = new Map<string, number>();
    for (const kv of live.items) {
      const prefix = decodeURIComponent(kv.key.slice(PREFIX_REGISTRY_ROOT.length).split('/')[0] ?? '');
      if (prefix !== o.etcdPrefix) prefixes.set(prefix, (prefixes.get(prefix) ?? 0) + 1);
    }
    if (prefixes.size > 0) {
      const list = [...prefixes].sort(([a], [b]) => a.localeCompare(b)).map(([p, n]) => `${JSON.stringify(p)} (${n} live)`).join(', ');
      o.log(`W: other API servers on this etcd use a different --etcd-prefix: ${list}; this server uses ${JSON.stringify(o.etcdPrefix)} and will not see their objects. If they are meant to be one cluster, give them the same --etcd-prefix.`);
    }
  }

  let stopped = false;
  const renew = async (): Promise<void> => {
    await putWithTtl(o.store, key, value, o.ttlSeconds);
    if (o.rootStore) await putWithTtl(o.rootStore, prefixKey, Buffer.from(JSON.stringify({ prefix: o.etcdPrefix, hostname: record.hostname, advertiseAddress: o.advertiseAddress })), o.ttlSeconds);
  };
  const timer = setInterval(() => {
    if (stopped) return;
    renew().catch((err: unknown) => o.log(`replica record: renewing failed: ${(err as Error)?.message ?? String(err)}`));
  }, o.renewIntervalMs);
  timer.unref();
  return {
    uid,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await o.store.delete(key).catch(() => undefined);
      if (o.rootStore) await o.rootStore.delete(prefixKey).catch(() => undefined);
    },
  };
}
