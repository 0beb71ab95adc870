/**
 * Continue tokens exactly as kube-apiserver encodes them (k8s.io/apiserver/pkg/storage/continue.go):
 * base64url without padding of `{"v":"meta.k8s.io/v1","rv":<revision>,"start":"<next key relative to the list prefix>"}`.
 * `start` is the last returned key + "\0", so a token from kube-apiserver and one from us mean the same thing.
 * Decoding errors read like Go's (clients show them verbatim).
 */
import { goJsonSyntaxError } from '../machinery/json/go-errors.ts';

export interface ContinuePosition {
  /** Absolute key to start from, inclusive (prefix + start). */
  readonly startKey: string;
  /** Revision of the first page; -1 = continue at the latest revision (a token minted after compaction). */
  readonly revision: number;
}

/** A token that cannot be decoded; the message is what follows `invalid continue token: `. */
export class InvalidContinueError extends Error {
  override name = 'InvalidContinueError';
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** base64.RawURLEncoding.DecodeString with Go's error text. */
function decodeRawUrlBase64(s: string): Buffer {
  for (let i = 0; i < s.length; i++) {
    if (!B64URL.includes(s[i]!)) throw new InvalidContinueError(`continue key is not valid: illegal base64 data at input byte ${i}`);
  }
  if (s.length % 4 === 1) throw new InvalidContinueError(`continue key is not valid: illegal base64 data at input byte ${s.length - 1}`);
  return Buffer.from(s, 'base64url');
}

/** Go's path.Clean for slash-separated keys. */
function cleanPath(p: string): string {
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(seg);
  }
  const joined = out.join('/');
  return rooted ? `/${joined}` : joined || '.';
}

export function encodeContinue(nextKey: string, listPrefix: string, revision: number): string {
  if (!nextKey.startsWith(listPrefix)) throw new Error('unable to encode next field: the key and key prefix do not match');
  const json = `{"v":"meta.k8s.io/v1","rv":${revision},"start":${JSON.stringify(nextKey.slice(listPrefix.length))}}`;
  return Buffer.from(json).toString('base64url');
}

/** Token for the page after `lastKey` (the last key returned). */
export function continueAfter(lastKey: string, listPrefix: string, revision: number): string {
  return encodeContinue(`${lastKey}\0`, listPrefix, revision);
}

export function decodeContinue(token: string, listPrefix: string): ContinuePosition {
  const data = decodeRawUrlBase64(token);
  const text = data.toString('latin1');
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    throw new InvalidContinueError(`continue key is not valid: ${goJsonSyntaxError(text)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    const t = parsed === null ? null : Array.isArray(parsed) ? 'array' : typeof parsed === 'string' ? 'string' : typeof parsed === 'number' ? 'number' : 'bool';
    if (t === null) throw new InvalidContinueError('continue key is not valid: server does not recognize this encoded version ');
    throw new InvalidContinueError(`continue key is not valid: json: cannot unmarshal ${t} into Go value of type storage.continueToken`);
  }
  const c = parsed as Record<string, unknown>;
  const typeErr = (fieldName: string, goType: string, v: unknown) => new InvalidContinueError(
    `continue key is not valid: json: cannot unmarshal ${Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'boolean' ? 'bool' : typeof v} into Go struct field continueToken.${fieldName} of type ${goType}`);
  const v = c['v'] ?? '';
  const rv = c['rv'] ?? 0;
  const start = c['start'] ?? '';
  if (typeof v !== 'string') throw typeErr('v', 'string', v);
  if (typeof rv !== 'number' || !Number.isInteger(rv)) throw typeErr('rv', 'int64', rv);
  if (typeof start !== 'string') throw typeErr('start', 'string', start);
  if (v !== 'meta.k8s.io/v1') throw new InvalidContinueError(`continue key is not valid: server does not recognize this encoded version ${v}`);
  if (rv === 0) throw new InvalidContinueError('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (!start) throw new InvalidContinueError('continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
  // Defend against path traversal: the cleaned key must equal the given one, so it stays under the list prefix.
  const key = start.startsWith('/') ? start : `/${start}`;
  if (cleanPath(key) !== key) throw new InvalidContinueError(`continue key is not valid: ${start}`);
  return { startKey: listPrefix + key.slice(1), revision: rv };
}
