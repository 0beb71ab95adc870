/**
 * The zero-config PKI: on first start in a data dir, a self-signed CA (10 years), a serving certificate for
 * the local names and the bind address, and an admin client certificate (CN=kubernetes-admin,
 * O=system:masters); later starts reuse them (a serving cert that lacks the current bind address or is close
 * to expiry is re-issued from the same CA, so existing kubeconfigs keep working). Without a data dir
 * everything stays in memory, and the CA is generated once per process so test servers start fast.
 * `--tls-cert-file/--tls-private-key-file` replace the serving pair; `--client-ca-file` adds trusted client CAs.
 */
import { mkdir, readFile, writeFile, stat } from 'node:fs/promises';
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import * as certsModule from './certs.ts';
import type { Issued } from './certs.ts';

const certs = (): Promise<typeof certsModule> => Promise.resolve(certsModule);

export interface PkiOptions {
  readonly dataDir?: string;
  readonly bindAddress: string;
  readonly tlsCertFile?: string;
  readonly tlsPrivateKeyFile?: string;
  readonly clientCaFile?: string;
  /** Further SANs for the serving certificate. */
  readonly extraSans?: readonly string[];
}

export interface Pki {
  /** Our CA (signs the serving cert unless replaced, and the admin cert). */
  readonly caPem: string;
  readonly servingCertPem: string;
  readonly servingKeyPem: string;
  readonly adminCertPem: string;
  readonly adminKeyPem: string;
  /** CA bundle trusted for client certificates: ours plus --client-ca-file. */
  readonly clientCaPems: readonly string[];
  /** What a client should trust to reach us: our CA, or the serving chain's issuer when --tls-cert-file is given. */
  readonly serverCaPem: string;
}

export const ADMIN_USER = 'kubernetes-admin';
export const ADMIN_GROUP = 'system:masters';
const RENEW_BEFORE_MS = 30 * 86_400_000;

function servingNames(bindAddress: string, extra: readonly string[] = []): { dns: string[]; ips: string[] } {
  const dns = new Set(['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local']);
  const ips = new Set(['127.0.0.1', '::1']);
  for (const n of [bindAddress, ...extra]) {
    if (!n || n === '0.0.0.0' || n === '::') continue;
    if (isIP(n)) ips.add(n);
    else dns.add(n);
  }
  return { dns: [...dns], ips: [...ips] };
}

async function issueServing(ca: Issued, o: PkiOptions): Promise<Issued> {
  const { dns, ips } = servingNames(o.bindAddress, o.extraSans);
  const { issue } = await certs();
  return issue({ subject: { cn: 'kube-apiserver' }, issuer: ca, usage: 'server', dnsNames: dns, ipAddresses: ips, days: 365 });
}

async function issueAdmin(ca: Issued): Promise<Issued> {
  const { issue } = await certs();
  return issue({ subject: { cn: ADMIN_USER, o: [ADMIN_GROUP] }, issuer: ca, usage: 'client', days: 365 });
}

/** True when the certificate still covers `ips` and is not about to expire. */
function stillGood(certPem: string, ca: string, ips: readonly string[] = []): boolean {
  try {
    const c = new X509Certificate(certPem);
    if (!c.checkIssued(new X509Certificate(ca))) return false;
    if (Date.parse(c.validTo) - Date.now() < RENEW_BEFORE_MS) return false;
    const san = c.subjectAltName ?? '';
    // Node prints IPv6 SANs expanded; only IPv4 entries are compared (the bind address is usually one).
    return ips.filter((ip) => isIP(ip) === 4).every((ip) => san.split(', ').includes(`IP Address:${ip}`));
  } catch {
    return false;
  }
}

async function readIfExists(p: string): Promise<string | undefined> {
  try {
    return await readFile(p, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function readRequired(p: string, flag: string): Promise<string> {
  try {
    return await readFile(p, 'utf8');
  } catch (err) {
    throw new Error(`${flag}: unable to read ${p}: ${(err as Error).message}`);
  }
}

let processCa: Promise<Issued> | undefined;
const memoryLeaves = new Map<string, Promise<Issued>>();

interface PemPair {
  readonly certPem: string;
  readonly keyPem: string;
}

async function pairFromDisk(dir: string, base: string, make: () => Promise<PemPair>, ok: (certPem: string) => boolean): Promise<PemPair> {
  const crtPath = path.join(dir, `${base}.crt`);
  const keyPath = path.join(dir, `${base}.key`);
  const [crt, key] = await Promise.all([readIfExists(crtPath), readIfExists(keyPath)]);
  if (crt && key && ok(crt)) return { certPem: crt, keyPem: key };
  const fresh = await make();
  await writeFile(keyPath, fresh.keyPem, { mode: 0o600 });
  await writeFile(crtPath, fresh.certPem, { mode: 0o644 });
  return fresh;
}

/** Loads or creates the certificates the server needs. */
export async function ensurePki(o: PkiOptions): Promise<Pki> {
  let ca: PemPair;
  let serving: PemPair | undefined;
  let admin: PemPair;
  const ips = servingNames(o.bindAddress, o.extraSans).ips;
  if (o.dataDir) {
    await mkdir(o.dataDir, { recursive: true, mode: 0o700 });
    const dir = o.dataDir;
    ca = await pairFromDisk(dir, 'ca', async () => (await certs()).createCa('keelson-ca'), () => true);
    // The CA with its key, parsed only when a leaf must be (re-)issued.
    let signer: Promise<Issued> | undefined;
    const caSigner = (): Promise<Issued> => (signer ??= certs().then((c) => c.loadIssued(ca.certPem, ca.keyPem)));
    // The two leaves are independent files: issued (or checked) together.
    [serving, admin] = await Promise.all([
      o.tlsCertFile ? undefined : pairFromDisk(dir, 'apiserver', async () => issueServing(await caSigner(), o), (c) => stillGood(c, ca.certPem, ips)),
      pairFromDisk(dir, 'admin', async () => issueAdmin(await caSigner()), (c) => stillGood(c, ca.certPem)),
    ]);
  } else {
    processCa ??= certs().then((c) => c.createCa('keelson-ca'));
    const signer = await processCa;
    ca = signer;
    const key = JSON.stringify(servingNames(o.bindAddress, o.extraSans));
    if (!o.tlsCertFile) {
      if (!memoryLeaves.has(key)) memoryLeaves.set(key, issueServing(signer, o));
      serving = await memoryLeaves.get(key)!;
    }
    if (!memoryLeaves.has('admin')) memoryLeaves.set('admin', issueAdmin(signer));
    admin = await memoryLeaves.get('admin')!;
  }
  let servingCertPem: string;
  let servingKeyPem: string;
  let serverCaPem = ca.certPem;
  if (o.tlsCertFile && o.tlsPrivateKeyFile) {
    servingCertPem = await readRequired(o.tlsCertFile, '--tls-cert-file');
    servingKeyPem = await readRequired(o.tlsPrivateKeyFile, '--tls-private-key-file');
    // Clients verify the given chain with its issuer; the last certificate in the file is the best guess.
    const blocks = servingCertPem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
    if (!blocks.length) throw new Error(`--tls-cert-file: no certificate found in ${o.tlsCertFile}`);
    serverCaPem = blocks.length > 1 ? blocks[blocks.length - 1]! + '\n' : blocks[0]! + '\n';
  } else {
    servingCertPem = serving!.certPem;
    servingKeyPem = serving!.keyPem;
  }
  const clientCaPems = [ca.certPem];
  if (o.clientCaFile) {
    const bundle = await readRequired(o.clientCaFile, '--client-ca-file');
    const blocks = bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
    if (!blocks.length) throw new Error(`--client-ca-file: no certificate found in ${o.clientCaFile}`);
    clientCaPems.push(...blocks.map((b) => b + '\n'));
  }
  return { caPem: ca.certPem, servingCertPem, servingKeyPem, adminCertPem: admin.certPem, adminKeyPem: admin.keyPem, clientCaPems, serverCaPem };
}

/** Exists for tests: whether a data dir already holds a CA. */
export async function hasCa(dataDir: string): Promise<boolean> {
  try {
    await stat(path.join(dataDir, 'ca.crt'));
    return true;
  } catch {
    return false;
  }
}
