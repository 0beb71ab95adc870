/** A one-request HTTP/2 client for server tests: TLS with the given CA and client credentials. */
import http2 from 'node:http2';

export interface H2Credentials {
  ca: string | Buffer;
  cert?: string | Buffer;
  key?: string | Buffer;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
}

export interface H2Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function h2request(url: string, path: string, cred: H2Credentials, extraHeaders: Record<string, string> = {}): Promise<H2Response> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(url, { ca: cred.ca, ...(cred.cert ? { cert: cred.cert } : {}), ...(cred.key ? { key: cred.key } : {}) });
    session.on('error', reject);
    const headers: Record<string, string> = { ':path': path, ...extraHeaders };
    if (cred.token) headers.authorization = `Bearer ${cred.token}`;
    const r = session.request(headers);
    let body = '';
    let h: H2Response['headers'] = {};
    r.on('response', (hh) => { h = hh as H2Response['headers']; });
    r.setEncoding('utf8');
    r.on('data', (c: string) => { body += c; });
    r.on('end', () => { session.close(); resolve({ status: Number(h[':status']), headers: h, body }); });
    r.on('error', reject);
    r.end();
  });
}
