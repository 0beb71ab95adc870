/**
 * Service account key material, as kube-apiserver loads it:
 * - `--service-account-key-file` (repeatable): PEM files with RSA or ECDSA public keys, private keys or
 *   certificates (several blocks per file); every key verifies tokens;
 * - `--service-account-signing-key-file`: the private key new tokens are signed with (its public part also
 *   verifies).
 * Zero-config: without a signing key file an RSA-2048 key is generated into the cert dir as `sa.key`/`sa.pub`
 * (reused on later starts, like the CA) or, without a cert dir, once per process in memory.
 * Key IDs are kube's: base64url (no padding) of the SHA-256 of the DER (SPKI) public key.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPair, X509Certificate, type KeyObject } from 'node:crypto';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/** JWS algorithms a key signs and verifies with (RSA: RS256; ECDSA by curve). */
export type SigningAlg = 'RS256' | 'ES256' | 'ES384' | 'ES512';

export interface PublicKeyEntry {
  readonly key: KeyObject;
  readonly kid: string;
  readonly alg: SigningAlg;
}

export interface SigningKey extends PublicKeyEntry {
  readonly privateKey: KeyObject;
}

export interface ServiceAccountKeys {
  readonly signing: SigningKey;
  /** Every verification key (key files first, then the signing key's public part), deduplicated by kid. */
  readonly verifying: readonly PublicKeyEntry[];
}

export interface KeyLoadOptions {
  readonly keyFiles?: readonly string[];
  readonly signingKeyFile?: string;
  /** Where a generated signing key is kept (`sa.key`, `sa.pub`); unset = memory only. */
  readonly certDir?: string;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n[\s\S]*?-----END \1-----/g;

/** The key ID kube-apiserver assigns a public key. */
export function keyId(key: KeyObject): string {
  const der = key.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url');
}

/** RS256 for RSA, ES256/384/512 by curve; undefined for anything else (Ed25519, DSA, ...). */
export function algFor(key: KeyObject): SigningAlg | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType !== 'ec') return undefined;
  switch (key.asymmetricKeyDetails?.namedCurve) {
    case 'prime256v1': return 'ES256';
    case 'secp384r1': return 'ES384';
    case 'secp521r1': return 'ES512';
    default: return undefined;
  }
}

function entry(key: KeyObject): PublicKeyEntry | undefined {
  const alg = algFor(key);
  return alg ? { key, kid: keyId(key), alg } : undefined;
}

/** Public keys from PEM text: public keys, private keys (their public part) and certificates. */
export function parsePublicKeys(pem: string): PublicKeyEntry[] {
  const out: PublicKeyEntry[] = [];
  for (const m of pem.matchAll(PEM_BLOCK)) {
    const type = m[1]!;
    let key: KeyObject | undefined;
    try {
      if (type.endsWith('PRIVATE KEY')) key = createPublicKey(createPrivateKey(m[0]));
      else if (type.endsWith('PUBLIC KEY')) key = createPublicKey(m[0]);
      else if (type === 'CERTIFICATE') key = new X509Certificate(m[0]).publicKey;
    } catch {
      key = undefined;
    }
    const e = key && entry(key);
    if (e) out.push(e);
  }
  return out;
}

/** The first RSA or ECDSA private key in PEM text. */
export function parseSigningKey(pem: string): SigningKey | undefined {
  for (const m of pem.matchAll(PEM_BLOCK)) {
    if (!m[1]!.endsWith('PRIVATE KEY')) continue;
    let privateKey: KeyObject;
    try {
      privateKey = createPrivateKey(m[0]);
    } catch {
      continue;
    }
    const pub = entry(createPublicKey(privateKey));
    if (pub) return { ...pub, privateKey };
  }
  return undefined;
}

async function readText(file: string, flag: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new Error(`${flag}: unable to read ${file}: ${(err as Error).message}`);
  }
}

const generateRsa = promisify(generateKeyPair);

async function generateSigningKey(): Promise<SigningKey> {
  const { privateKey } = await generateRsa('rsa', { modulusLength: 2048 });
  return parseSigningKey(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string)!;
}

let processKey: Promise<SigningKey> | undefined;
let ahead: Promise<SigningKey> | undefined;

/**
 * Starts generating the RSA key a first start in `certDir` will need, when it has none yet: key generation
 * runs in libuv's pool for 100–350 ms, so beginning before the store is open takes it off the start's
 * critical path. The key is only written to disk later, by the server that holds the data dir's lock.
 */
export function generateSigningKeyAhead(o: { readonly certDir?: string; readonly signingKeyFile?: string }): void {
  if (ahead || o.signingKeyFile || !o.certDir || existsSync(path.join(o.certDir, 'sa.key'))) return;
  ahead = generateSigningKey();
  ahead.catch(() => {}); // a failure surfaces where the key is taken
}

function takeGeneratedKey(): Promise<SigningKey> {
  const p = ahead ?? generateSigningKey();
  ahead = undefined;
  return p;
}

/** `<certDir>/sa.key` (created with `sa.pub` when missing or unreadable as a key). */
async function signingKeyInDir(dir: string): Promise<SigningKey> {
  const keyPath = path.join(dir, 'sa.key');
  let existing: string | undefined;
  try {
    existing = await readFile(keyPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const parsed = existing === undefined ? undefined : parseSigningKey(existing);
  if (parsed) return parsed;
  if (existing !== undefined) throw new Error(`${keyPath} does not hold an RSA or ECDSA private key`);
  const fresh = await takeGeneratedKey();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(keyPath, fresh.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, { mode: 0o600 });
  await writeFile(path.join(dir, 'sa.pub'), fresh.key.export({ type: 'spki', format: 'pem' }) as string, { mode: 0o644 });
  return fresh;
}

export async function loadServiceAccountKeys(o: KeyLoadOptions): Promise<ServiceAccountKeys> {
  let signing: SigningKey;
  if (o.signingKeyFile) {
    const k = parseSigningKey(await readText(o.signingKeyFile, '--service-account-signing-key-file'));
    if (!k) throw new Error(`--service-account-signing-key-file: failed to parse ${o.signingKeyFile}: data does not contain a valid RSA or ECDSA private key`);
    signing = k;
  } else if (o.certDir) {
    signing = await signingKeyInDir(o.certDir);
  } else {
    signing = await (processKey ??= generateSigningKey());
  }
  const verifying: PublicKeyEntry[] = [];
  for (const f of o.keyFiles ?? []) {
    const keys = parsePublicKeys(await readText(f, '--service-account-key-file'));
    if (!keys.length) throw new Error(`--service-account-key-file: failed to parse ${f}: data does not contain any valid RSA or ECDSA public keys`);
    verifying.push(...keys);
  }
  verifying.push({ key: signing.key, kid: signing.kid, alg: signing.alg });
  const seen = new Set<string>();
  return { signing, verifying: verifying.filter((k) => !seen.has(k.kid) && seen.add(k.kid)) };
}
