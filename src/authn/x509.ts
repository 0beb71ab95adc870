/**
 * Client certificate authentication (kube's x509 authenticator with CommonNameUserConversion): the chain the
 * client presented must lead to one of the trusted CAs (our own CA plus `--client-ca-file`), be within its
 * validity window and allow client authentication; then CN = username and each O = a group. A certificate that
 * fails verification is an error (401), not anonymous; no certificate (or an empty CN) is no opinion.
 * Results are cached per TLS connection, since every request on a keep-alive/HTTP/2 connection carries the same chain.
 */
import { X509Certificate } from 'node:crypto';
import type { TLSSocket, PeerCertificate, DetailedPeerCertificate } from 'node:tls';
import type { UserInfo } from '../machinery/objects.ts';
import type { AuthRequest, AuthResult, Authenticator } from '../request/authenticator.ts';
import { NO_OPINION } from '../request/authenticator.ts';
import { frozenUser } from './union.ts';

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_EKU = '2.5.29.37.0';

/** Splits a PEM bundle into certificates (ignores anything else in the file). */
export function parseCertBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => new X509Certificate(b));
}

function ekuAllowsClient(c: X509Certificate): boolean {
  const ku = c.keyUsage as string[] | undefined;
  return !ku || ku.length === 0 || ku.includes(CLIENT_AUTH) || ku.includes(ANY_EKU);
}

function inWindow(c: X509Certificate, now: number): boolean {
  return Date.parse(c.validFrom) <= now && now <= Date.parse(c.validTo);
}

/**
 * Verifies `chain` (leaf first, then intermediates as sent) against `roots`.
 * Returns undefined when valid, else Go's x509 error wording (for logs).
 */
export function verifyClientChain(chain: readonly X509Certificate[], roots: readonly X509Certificate[], now = Date.now()): string | undefined {
  const leaf = chain[0];
  if (!leaf) return 'x509: no certificate';
  if (!inWindow(leaf, now)) return `x509: certificate has expired or is not yet valid: current time ${new Date(now).toISOString()} is after ${new Date(leaf.validTo).toISOString()}`;
  if (!ekuAllowsClient(leaf)) return 'x509: certificate specifies an incompatible key usage';
  const intermediates = chain.slice(1);
  let cur = leaf;
  for (let depth = 0; depth <= intermediates.length; depth++) {
    for (const r of roots) {
      if (cur.checkIssued(r) && cur.verify(r.publicKey) && inWindow(r, now)) return undefined;
    }
    const next = intermediates.find((i) => i !== cur && i.ca && cur.checkIssued(i) && cur.verify(i.publicKey) && inWindow(i, now));
    if (!next) break;
    if (!ekuAllowsClient(next)) return 'x509: certificate specifies an incompatible key usage';
    cur = next;
  }
  return 'x509: certificate signed by unknown authority';
}

/** CN and O of a certificate's subject. */
export function subjectUser(cert: X509Certificate): UserInfo | undefined {
  // Node's legacy view of the subject: repeated attributes become arrays. Go keeps the last CN.
  const subject = (cert.toLegacyObject().subject ?? {}) as Record<string, string | string[] | undefined>;
  const all = (k: string): string[] => {
    const v = subject[k];
    return v === undefined ? [] : Array.isArray(v) ? v : [v];
  };
  const cn = all('CN').at(-1);
  if (!cn) return undefined;
  return { username: cn, groups: all('O') };
}

/** The chain a TLS peer presented, leaf first. */
export function peerChain(socket: TLSSocket): X509Certificate[] {
  const first = socket.getPeerCertificate(true) as DetailedPeerCertificate | PeerCertificate | undefined;
  if (!first || !first.raw) return [];
  const out: X509Certificate[] = [];
  const seen = new Set<string>();
  let c: DetailedPeerCertificate | undefined = first as DetailedPeerCertificate;
  while (c && c.raw && !seen.has(c.fingerprint256) && out.length < 10) {
    seen.add(c.fingerprint256);
    out.push(new X509Certificate(c.raw));
    c = c.issuerCertificate;
  }
  return out;
}

export interface X509AuthOptions {
  /** Trusted client CAs (ours and those from --client-ca-file). */
  readonly roots: readonly X509Certificate[];
  readonly now?: () => number;
}

export function x509Authenticator(opts: X509AuthOptions): Authenticator {
  const cache = new WeakMap<object, { result: AuthResult; until: number }>();
  const now = opts.now ?? Date.now;
  const check = (chain: X509Certificate[]): { result: AuthResult; until: number } => {
    if (!chain.length) return { result: NO_OPINION, until: Infinity };
    const t = now();
    const err = verifyClientChain(chain, opts.roots, t);
    if (err) return { result: { kind: 'error', message: `verifying certificate ${chain[0]!.subject.replace(/\n/g, ',')} failed: ${err}`, }, until: Infinity };
    const user = subjectUser(chain[0]!);
    const until = Math.min(...chain.map((c) => Date.parse(c.validTo)));
    return { result: user ? Object.freeze({ kind: 'authenticated', method: 'x509', user: frozenUser(user) }) : NO_OPINION, until };
  };
  return {
    name: 'x509',
    authenticate(req: AuthRequest): AuthResult {
      const socket = req.tlsSocket;
      if (!socket || typeof socket.getPeerCertificate !== 'function') return NO_OPINION;
      const hit = cache.get(socket);
      // The cached result is frozen: every request on the connection shares it.
      if (hit && now() <= hit.until) return hit.result;
      const entry = check(peerChain(socket));
      cache.set(socket, entry);
      return entry.result;
    },
  };
}

/** For tests and embedding: authenticate a chain directly. */
export function authenticateChain(chain: X509Certificate[], roots: readonly X509Certificate[], now = Date.now()): AuthResult {
  const err = verifyClientChain(chain, roots, now);
  if (err) return { kind: 'error', message: err };
  const user = chain[0] && subjectUser(chain[0]);
  return user ? { kind: 'authenticated', method: 'x509', user } : NO_OPINION;
}
