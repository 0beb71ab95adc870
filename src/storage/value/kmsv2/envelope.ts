/**
 * The KMS v2 provider (kube's envelope/kmsv2), stored as `k8s:enc:kms:v2:<name>:` + an EncryptedObject.
 *
 * Writes: one random 32-byte seed is encrypted by the plugin (`Encrypt`) and kept as the write state; each value
 * gets its own key HKDF-Expand(seed, 32 random bytes) (aes.ts ExtendedNonceGcmTransformer), so the plugin is
 * not called per write. The state is renewed when the plugin's `Status` reports another key ID, and writes stop
 * when no successful `Status` extended it for three minutes (kube's write-DEK-source TTL).
 * Reads: the stored DEK source is decrypted by the plugin once and cached by (type, source, keyID, annotations);
 * values written with a plain DEK (AES_GCM_KEY) are read too.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AesGcmTransformer, ExtendedNonceGcmTransformer, SEED_SIZE } from '../aes.ts';
import { TransformError, type FromStorage, type Transformer } from '../transformer.ts';
import { GrpcError, UnixGrpcClient } from './grpc.ts';
import {
  decodeDecryptResponse, decodeEncryptedObject, decodeEncryptResponse, decodeStatusResponse, encodeDecryptRequest,
  encodeEncryptedObject, encodeEncryptRequest, encodeStatusRequest, type EncryptedObject,
} from './proto.ts';

export const AES_GCM_KEY = 0;
export const HKDF_SHA256_XNONCE_AES_GCM_SEED = 1;

const KEY_ID_MAX = 1024;
const DEK_SOURCE_MAX = 1024;
const ANNOTATIONS_MAX = 32 * 1024;
const FQDN = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/;

/** The plugin's side, as kube's kmsservice.Service. */
export interface KmsService {
  status(): Promise<{ version: string; healthz: string; keyID: string }>;
  encrypt(uid: string, plaintext: Uint8Array): Promise<{ ciphertext: Uint8Array; keyID: string; annotations: Map<string, Uint8Array> }>;
  decrypt(uid: string, req: { ciphertext: Uint8Array; keyID: string; annotations: Map<string, Uint8Array> }): Promise<Uint8Array>;
  close(): void;
}

/** The gRPC plugin at `unix://<path>` (or `unix:///<path>`). */
export function grpcKmsService(endpoint: string, timeoutMs: number): KmsService {
  const path = endpoint.replace(/^unix:\/\//, '');
  const client = new UnixGrpcClient(path);
  const svc = '/v2.KeyManagementService/';
  return {
    async status() {
      return decodeStatusResponse(await client.call(`${svc}Status`, encodeStatusRequest(), timeoutMs));
    },
    async encrypt(uid, plaintext) {
      return decodeEncryptResponse(await client.call(`${svc}Encrypt`, encodeEncryptRequest(plaintext, uid), timeoutMs));
    },
    async decrypt(uid, req) {
      return decodeDecryptResponse(await client.call(`${svc}Decrypt`, encodeDecryptRequest({ ...req, uid }), timeoutMs));
    },
    close: () => client.close(),
  };
}

export function validateEncryptedObject(o: EncryptedObject): void {
  if (o.encryptedDEKSourceType !== AES_GCM_KEY && o.encryptedDEKSourceType !== HKDF_SHA256_XNONCE_AES_GCM_SEED) {
    throw new TransformError(`unknown encryptedDEKSourceType: ${o.encryptedDEKSourceType}`);
  }
  if (o.encryptedData.length === 0) throw new TransformError('encrypted data is empty');
  if (o.encryptedDEKSource.length === 0) throw new TransformError('failed to validate encrypted DEK source: encrypted DEK source is empty');
  if (o.encryptedDEKSource.length > DEK_SOURCE_MAX) {
    throw new TransformError(`failed to validate encrypted DEK source: encrypted DEK source is ${o.encryptedDEKSource.length} bytes, which exceeds the max size of ${DEK_SOURCE_MAX}`);
  }
  const keyIDErr = keyIDError(o.keyID);
  if (keyIDErr) throw new TransformError(`failed to validate key id: ${keyIDErr}`);
  let size = 0;
  for (const [k, v] of o.annotations) {
    if (!FQDN.test(k)) throw new TransformError(`failed to validate annotations: annotations: Invalid value: "${k}": should be a domain with at least two segments separated by dots`);
    size += k.length + v.length;
  }
  if (size > ANNOTATIONS_MAX) throw new TransformError(`failed to validate annotations: total size of annotations is ${size}, which exceeds the max size of ${ANNOTATIONS_MAX}`);
}

function keyIDError(keyID: string): string | undefined {
  if (keyID.length === 0) return 'keyID is empty';
  const n = Buffer.byteLength(keyID);
  if (n > KEY_ID_MAX) return `keyID is ${n} bytes, which exceeds the max size of ${KEY_ID_MAX}`;
  return undefined;
}

/** kube's cache key of a DEK source: type, source, key ID and the sorted annotations, length-prefixed. */
export function cacheKey(type: number, source: Uint8Array, keyID: string, annotations: ReadonlyMap<string, Uint8Array>): string {
  const parts: Buffer[] = [];
  const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); parts.push(b); };
  const lp16 = (b: Uint8Array) => { const l = Buffer.alloc(2); l.writeUInt16BE(b.length); parts.push(l, Buffer.from(b)); };
  u32(type);
  lp16(source);
  lp16(Buffer.from(keyID));
  if (annotations.size > 0) {
    u32(annotations.size);
    for (const k of [...annotations.keys()].sort()) {
      lp16(Buffer.from(k));
      lp16(annotations.get(k)!);
    }
  }
  return createHash('sha256').update(Buffer.concat(parts)).digest('base64');
}

interface WriteState {
  readonly transformer: Transformer;
  readonly keyID: string;
  readonly dekSource: Uint8Array;
  readonly annotations: Map<string, Uint8Array>;
  expiresAt: number;
}

export interface KmsV2Options {
  readonly name: string;
  readonly service: KmsService;
  /** kube: 1 minute after a healthy Status, 10 s after a failed one; 3 minutes of write validity. */
  readonly healthyIntervalMs?: number;
  readonly unhealthyIntervalMs?: number;
  readonly writeTtlMs?: number;
  readonly now?: () => number;
}

const hashOf = (s: string) => (s ? `sha256:${createHash('sha256').update(s).digest('hex')}` : '');

export class KmsV2Transformer implements Transformer {
  private state: WriteState | undefined;
  private readonly readCache = new Map<string, Transformer>();
  private lastError: string | undefined = 'KMSv2 plugin not yet probed';
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly o: KmsV2Options) {
    this.now = o.now ?? Date.now;
  }

  /** Probes the plugin once (and creates the write seed), then keeps probing in the background. */
  async start(): Promise<void> {
    await this.probe();
    this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    const ms = this.lastError ? (this.o.unhealthyIntervalMs ?? 10_000) : (this.o.healthyIntervalMs ?? 60_000);
    this.timer = setTimeout(() => void this.probe().finally(() => this.schedule()), ms);
    this.timer.unref();
  }

  /** The health check's answer: undefined when healthy, else kube's error text. */
  health(): string | undefined {
    return this.lastError;
  }

  /** One Status call: checks the plugin, rotates the seed when its key ID changed, extends write validity. */
  async probe(): Promise<void> {
    try {
      const st = await this.o.service.status();
      const errs: string[] = [];
      if (st.healthz !== 'ok') errs.push(`got unexpected healthz status: ${st.healthz}`);
      if (st.version !== 'v2') errs.push(`expected KMSv2 API version v2, got ${st.version}`);
      const kerr = keyIDError(st.keyID);
      if (kerr) errs.push(`got invalid KMSv2 KeyID hash ${JSON.stringify(hashOf(st.keyID))}: ${kerr}`);
      if (errs.length) throw new Error(`kmsv2 Provider ${this.o.name} is not healthy, error: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`);
      const expiresAt = this.now() + (this.o.writeTtlMs ?? 3 * 60_000);
      if (this.state && this.state.keyID === st.keyID) this.state.expiresAt = expiresAt;
      else await this.rotate(expiresAt);
      this.lastError = undefined;
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      this.lastError = msg.startsWith('kmsv2 Provider') ? msg : `failed to perform status section of the healthz check for KMS Provider ${this.o.name}, error: ${msg}`;
    }
  }

  private async rotate(expiresAt: number): Promise<void> {
    const seed = randomBytes(SEED_SIZE);
    let resp;
    try {
      resp = await this.o.service.encrypt(randomUUID(), seed);
    } catch (e) {
      throw new Error(`failed to encrypt DEK, error: ${e instanceof Error ? e.message : String(e)}`);
    }
    validateEncryptedObject({ encryptedData: Uint8Array.of(0), keyID: resp.keyID, encryptedDEKSource: resp.ciphertext, annotations: resp.annotations, encryptedDEKSourceType: HKDF_SHA256_XNONCE_AES_GCM_SEED });
    const transformer = new ExtendedNonceGcmTransformer(seed);
    this.readCache.set(cacheKey(HKDF_SHA256_XNONCE_AES_GCM_SEED, resp.ciphertext, resp.keyID, resp.annotations), transformer);
    this.state = { transformer, keyID: resp.keyID, dekSource: new Uint8Array(resp.ciphertext), annotations: resp.annotations, expiresAt };
  }

  async toStorage(data: Uint8Array, ad: Uint8Array): Promise<Uint8Array> {
    const s = this.state;
    if (!s) throw new TransformError('got unexpected nil transformer');
    const now = this.now();
    if (now > s.expiresAt) {
      throw new TransformError(`encryptedDEKSource with keyID hash ${JSON.stringify(hashOf(s.keyID))} expired at ${new Date(s.expiresAt).toISOString().replace(/\.\d+Z$/, 'Z')} (current time is ${new Date(now).toISOString().replace(/\.\d+Z$/, 'Z')})`);
    }
    const sealed = await s.transformer.toStorage(data, ad);
    return encodeEncryptedObject({ encryptedData: sealed, keyID: s.keyID, encryptedDEKSource: s.dekSource, annotations: s.annotations, encryptedDEKSourceType: HKDF_SHA256_XNONCE_AES_GCM_SEED });
  }

  async fromStorage(data: Uint8Array, ad: Uint8Array): Promise<FromStorage> {
    let o: EncryptedObject;
    try {
      o = decodeEncryptedObject(data);
    } catch (e) {
      throw new TransformError((e as Error).message);
    }
    validateEncryptedObject(o);
    const ck = cacheKey(o.encryptedDEKSourceType, o.encryptedDEKSource, o.keyID, o.annotations);
    let t = this.readCache.get(ck);
    if (!t) {
      let key: Uint8Array;
      try {
        key = await this.o.service.decrypt(randomUUID(), { ciphertext: o.encryptedDEKSource, keyID: o.keyID, annotations: o.annotations });
      } catch (e) {
        throw new TransformError(`failed to decrypt DEK, error: ${e instanceof GrpcError || e instanceof Error ? e.message : String(e)}`);
      }
      t = o.encryptedDEKSourceType === HKDF_SHA256_XNONCE_AES_GCM_SEED ? new ExtendedNonceGcmTransformer(key) : new AesGcmTransformer(key);
      if (this.readCache.size >= 10_000) this.readCache.delete(this.readCache.keys().next().value!);
      this.readCache.set(ck, t);
    }
    const r = await t.fromStorage(o.encryptedData, ad);
    const s = this.state;
    return { data: r.data, stale: r.stale || !s || o.keyID !== s.keyID || o.encryptedDEKSourceType !== HKDF_SHA256_XNONCE_AES_GCM_SEED };
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.o.service.close();
  }
}
