/**
 * The physical baseline for the GET benchmark: bare Node servers answering every request with the same bytes
 * and headers Keelson sent for the object, one `node:https` listener (HTTP/1.1) and one `node:http2` secure
 * listener (HTTP/2). Run as its own process, like Keelson:
 *   node --import tsx bench/http/baseline-server.ts <cert.pem> <key.pem> <body.json> <headers.json>
 * Prints `<https port> <http2 port>` when listening; exits on SIGTERM.
 */
import https from 'node:https';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';

const [certFile, keyFile, bodyFile, headersFile] = process.argv.slice(2);
const body = readFileSync(bodyFile!);
const headers: Record<string, string> = { ...JSON.parse(readFileSync(headersFile!, 'utf8')), 'Content-Length': String(body.byteLength) };
const tls = { cert: readFileSync(certFile!), key: readFileSync(keyFile!) };
const h1 = https.createServer({ ...tls, keepAliveTimeout: 60_000 }, (_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
const h2 = http2.createSecureServer(tls, (_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
const listening = (s: { listen(port: number, host: string, cb: () => void): unknown }) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
await Promise.all([listening(h1), listening(h2)]);
process.stdout.write(`${(h1.address() as AddressInfo).port} ${(h2.address() as AddressInfo).port}\n`);
process.on('SIGTERM', () => {
  h1.closeAllConnections();
  h2.close();
  h1.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 500).unref();
});
