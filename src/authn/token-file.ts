/**
 * `--token-auth-file`: CSV rows `token,user,uid[,"group1,group2"]`, read as kube's tokenfile package does
 * (Go's encoding/csv with a variable field count and leading spaces trimmed; empty lines skipped; a row with
 * fewer than three columns fails the start; an empty token is skipped; a duplicate token: the last row wins).
 * Tokens are compared in constant time per candidate length.
 */
import { readFile } from 'node:fs/promises';
import { timingSafeEqual } from 'node:crypto';
import type { UserInfo } from '../machinery/objects.ts';
import type { TokenAuthenticator } from '../request/authenticator.ts';
import { frozenUser } from './union.ts';

export class TokenFileError extends Error {
  override name = 'TokenFileError';
}

/** Go encoding/csv with TrimLeadingSpace; quotes, doubled quotes, and newlines inside quotes. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let i = 0;
  const n = text.length;
  let line = 1;
  while (i < n) {
    // Skip empty lines (Go's reader ignores them).
    if (text[i] === '\n') { i++; line++; continue; }
    if (text[i] === '\r' && text[i + 1] === '\n') { i += 2; line++; continue; }
    const row: string[] = [];
    for (;;) {
      while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= n) throw new TokenFileError(`record on line ${line}: extraneous or missing " in quoted-field`);
          const c = text[i]!;
          if (c === '"') {
            if (text[i + 1] === '"') { field += '"'; i += 2; continue; }
            i++;
            break;
          }
          if (c === '\n') line++;
          field += c;
          i++;
        }
        if (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          throw new TokenFileError(`record on line ${line}: extraneous or missing " in quoted-field`);
        }
      } else {
        while (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          if (text[i] === '"') throw new TokenFileError(`record on line ${line}: bare " in non-quoted-field`);
          field += text[i];
          i++;
        }
      }
      row.push(field);
      if (i < n && text[i] === ',') { i++; continue; }
      break;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') { i++; line++; }
    rows.push(row);
  }
  return rows;
}

export function parseTokenFile(text: string, path = '<inline>'): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  for (const record of parseCsv(text)) {
    if (record.length < 3) {
      throw new TokenFileError(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    }
    const [token, username, uid] = record as [string, string, string];
    if (token === '') continue;
    const user: UserInfo = { username, uid, groups: record.length >= 4 ? record[3]!.split(',') : [] };
    tokens.set(token, user);
  }
  return tokens;
}

export function staticTokenAuthenticator(tokens: ReadonlyMap<string, UserInfo>): TokenAuthenticator {
  // One frozen user per entry, handed to every request with that token (nothing downstream changes a user).
  const entries = [...tokens].map(([t, u]) => ({ token: Buffer.from(t), user: frozenUser(u) }));
  return {
    name: 'token-file',
    authenticateToken(token: string): UserInfo | undefined {
      const given = Buffer.from(token);
      let found: UserInfo | undefined;
      for (const e of entries) {
        if (e.token.length === given.length && timingSafeEqual(e.token, given)) found = e.user;
      }
      return found;
    },
  };
}

export async function loadTokenFile(path: string): Promise<TokenAuthenticator> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new TokenFileError(`failed to read token file '${path}': ${(err as Error).message}`);
  }
  return staticTokenAuthenticator(parseTokenFile(text, path));
}
