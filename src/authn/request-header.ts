/**
 * The authenticating proxy (`--requestheader-*`), as kube's headerrequest authenticator behind an x509
 * verifier: only a connection whose client certificate chains to the request-header CA (a CA of its own, not
 * the client CA) and, when allowed names are set, whose CN is one of them, may assert a user in headers.
 * Without a certificate the headers are ignored (no opinion); a certificate that fails that verification is an
 * error, which a later method (a normal client certificate, a token) may still outvote — header spoofing
 * never yields the asserted user.
 *
 * Headers: username = the first non-empty value among the username headers (in order); groups = every
 * non-empty value of every group header; uid = first non-empty uid header value; extra = every header starting
 * with one of the prefixes (case-insensitive), key = rest of the name lower-cased and percent-decoded.
 */
import { readFile } from 'node:fs/promises';
import type { X509Certificate } from 'node:crypto';
import type { UserInfo } from '../machinery/objects.ts';
import type { AuthenticationDeps, AuthenticationPart } from './deps.ts';
import type { AuthRequest, AuthResult, Authenticator } from '../request/authenticator.ts';
import { NO_OPINION } from '../request/authenticator.ts';
import { parseCertBundle, peerChain, subjectUser, verifyClientChain } from './x509.ts';
import { OptionsError } from '../machinery/errors.ts';
import { watchFile } from './jwt/reload.ts';

export interface RequestHeaderConfig {
  /** CAs that sign proxy client certificates (`--requestheader-client-ca-file`). */
  readonly roots: readonly X509Certificate[];
  readonly usernameHeaders: readonly string[];
  readonly groupHeaders: readonly string[];
  readonly extraHeaderPrefixes: readonly string[];
  readonly uidHeaders: readonly string[];
  /** Allowed proxy certificate CNs; empty = any certificate from the CA. */
  readonly allowedNames: readonly string[];
  readonly now?: () => number;
}

/**
 * Requests that expose every header line (Node's `rawHeaders`: name, value, name, value, …). Without it only
 * the first value of a header is seen and extra headers cannot be listed.
 */
type WithRawHeaders = AuthRequest & { readonly rawHeaders?: readonly string[] };

function headerLines(req: WithRawHeaders, names: readonly string[]): string[] {
  const raw = req.rawHeaders;
  if (raw) {
    const wanted = names.map((n) => n.toLowerCase());
    const out: string[] = [];
    // Per name in the configured order, every line of that header in arrival order (Go's header map order).
    for (const w of wanted) {
      for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.toLowerCase() === w) out.push(raw[i + 1]!);
    }
    return out;
  }
  return names.map((n) => req.header(n)).filter((v): v is string => v !== undefined);
}

function firstValue(req: WithRawHeaders, names: readonly string[]): string {
  for (const n of names) {
    const v = headerLines(req, [n]).find((x) => x.length > 0);
    if (v) return v;
  }
  return '';
}

function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key; // kube keeps malformed escapes as they are
  }
}

function extraFrom(req: WithRawHeaders, prefixes: readonly string[]): Record<string, string[]> | undefined {
  const raw = req.rawHeaders;
  if (!raw || prefixes.length === 0) return undefined;
  const lower = prefixes.map((p) => p.toLowerCase());
  const extra: Record<string, string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const p = lower.find((x) => name.startsWith(x));
    if (p === undefined) continue;
    const key = unescapeExtraKey(name.slice(p.length));
    (extra[key] ??= []).push(raw[i + 1]!);
  }
  return Object.keys(extra).length ? extra : undefined;
}

/** The user the headers assert, or undefined without a username. */
export function userFromHeaders(req: AuthRequest, c: Omit<RequestHeaderConfig, 'roots'>): UserInfo | undefined {
  const r = req as WithRawHeaders;
  const username = firstValue(r, c.usernameHeaders);
  if (!username) return undefined;
  const user: UserInfo = { username, groups: headerLines(r, c.groupHeaders).filter((g) => g.length > 0) };
  const uid = firstValue(r, c.uidHeaders);
  if (uid) user.uid = uid;
  const extra = extraFrom(r, c.extraHeaderPrefixes);
  if (extra) user.extra = extra;
  return user;
}

export function requestHeaderAuthenticator(c: RequestHeaderConfig): Authenticator {
  const now = c.now ?? Date.now;
  // Verification per TLS connection: every request on it carries the same chain.
  const verified = new WeakMap<object, { error?: string; until: number; roots: readonly X509Certificate[] }>();
  const verify = (req: AuthRequest): string | undefined | 'none' => {
    const socket = req.tlsSocket;
    if (!socket || typeof socket.getPeerCertificate !== 'function') return 'none';
    const hit = verified.get(socket);
    // A reloaded CA bundle (a new roots array) invalidates what was verified against the old one.
    if (hit && now() <= hit.until && hit.roots === c.roots) return hit.error;
    const chain = peerChain(socket);
    if (!chain.length) return 'none';
    let error = verifyClientChain(chain, c.roots, now());
    const cn = subjectUser(chain[0]!)?.username ?? '';
    if (!error && c.allowedNames.length && !c.allowedNames.includes(cn)) error = `x509: subject with cn=${cn} is not in the allowed list`;
    verified.set(socket, { error, until: error ? Infinity : Math.min(...chain.map((x) => Date.parse(x.validTo))), roots: c.roots });
    return error;
  };
  return {
    name: 'request-header',
    authenticate(req: AuthRequest): AuthResult {
      const v = verify(req);
      if (v === 'none') return NO_OPINION;
      if (v !== undefined) return { kind: 'error', message: v };
      const user = userFromHeaders(req, c);
      return user ? { kind: 'authenticated', method: 'request-header', user } : NO_OPINION;
    },
  };
}

/** kube's checkForWhiteSpaceOnly over each list flag. */
function whitespaceErrors(lists: Record<string, readonly string[]>): string[] {
  return Object.entries(lists).filter(([, vs]) => vs.some((v) => v.trim() === '')).map(([flag]) => `empty value in ${JSON.stringify(flag)}`);
}

async function loadBundle(file: string, what: string): Promise<X509Certificate[]> {
  let certs: X509Certificate[];
  try {
    certs = parseCertBundle(await readFile(file, 'utf8'));
  } catch (e) {
    throw new OptionsError(`unable to load ${what} file ${JSON.stringify(file)}: ${(e as Error).message}`);
  }
  if (!certs.length) throw new OptionsError(`unable to load ${what} file ${JSON.stringify(file)}: data does not contain any valid RSA or ECDSA certificates`);
  return certs;
}

/**
 * The request-header CA certificates as PEM, for the TLS listener's list of acceptable client-certificate
 * issuers (kube adds them to the serving config's client CAs so Go proxies send their certificate). They must
 * not join the x509 authenticator's roots: a proxy certificate is not a user certificate.
 */
export async function requestHeaderCaPems(o: { requestHeader?: { clientCaFile: string } }): Promise<string[]> {
  const file = o.requestHeader?.clientCaFile;
  if (!file) return [];
  return (await loadBundle(file, 'request-header client CA')).map((c) => c.toString());
}

/** The authenticating proxy from `options.requestHeader`; nothing without `--requestheader-client-ca-file`, as kube. */
export async function requestHeaderAuthentication(deps: AuthenticationDeps): Promise<AuthenticationPart> {
  const o = deps.options;
  const rh = o.requestHeader;
  if (!rh) return {};
  const errs = whitespaceErrors({
    'requestheader-username-headers': rh.usernameHeaders, 'requestheader-group-headers': rh.groupHeaders,
    'requestheader-extra-headers-prefix': rh.extraHeaderPrefixes, 'requestheader-allowed-names': rh.allowedNames,
    'requestheader-uid-headers': rh.uidHeaders,
  });
  if (rh.uidHeaders.length && o.featureGates?.RemoteRequestHeaderUID === false) {
    errs.push('--requestheader-uid-headers requires the "RemoteRequestHeaderUID" feature to be enabled');
  }
  if (errs.length) throw new OptionsError(errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);
  if (!rh.clientCaFile) return {};
  const roots = await loadBundle(rh.clientCaFile, 'request-header client CA');
  if (o.clientCaFile && rh.allowedNames.length === 0) {
    const clientCas = await loadBundle(o.clientCaFile, 'client CA');
    if (clientCas.some((a) => roots.some((b) => a.raw.equals(b.raw)))) {
      throw new OptionsError('--requestheader-client-ca-file and --client-ca-file contain overlapping certificates; --requestheader-allowed-names must be specified to ensure regular client certificates cannot set authenticating proxy headers for arbitrary users');
    }
  }
  if (rh.usernameHeaders.length && !rh.usernameHeaders.some((h) => h.toLowerCase() === 'x-remote-user')) {
    deps.log('--requestheader-username-headers is set without specifying the standard X-Remote-User header - API aggregation will not work');
  }
  // kube reloads the CA bundle when the file changes; a file that no longer loads keeps the last good bundle.
  let current = roots;
  const file = rh.clientCaFile;
  const watcher = watchFile({
    file,
    intervalMs: 60_000,
    log: deps.log,
    onChange: async () => {
      let next: X509Certificate[];
      try {
        next = await loadBundle(file, 'request-header client CA');
      } catch (e) {
        deps.log(`${(e as Error).message}; keeping the previous request-header CA bundle`);
        return;
      }
      const same = next.length === current.length && next.every((x, i) => x.raw.equals(current[i]!.raw));
      if (same) return;
      current = next;
      deps.log(`loaded a new request-header client CA bundle from ${file}`);
    },
  });
  const config: RequestHeaderConfig = { ...rh, get roots() { return current; } };
  return {
    requestAuthenticators: [requestHeaderAuthenticator(config)],
    stop() {
      watcher.stop();
      return Promise.resolve();
    },
  };
}
