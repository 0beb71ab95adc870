/**
 * The physical baseline for the GET benchmark: a bare `node:https` server answering every request with the
 * same bytes (and headers) Keelson sent for the object. Run as its own process, like Keelson:
 *   node --import tsx bench/http/baseline-server.ts <port> <cert.pem> <key.pem> <body.json>
 * Prints `ready` when listening; exits on SIGTERM.
 */
import https from 'node:https';
import { readFileSync } from 'node:fs';

const [portArg, certFile, keyFile, bodyFile] = process.argv.slice(2);
const body = readFileSync(bodyFile!);
const server = https.createServer({ cert: readFileSync(certFile!), key: readFileSync(keyFile!), keepAliveTimeout: 60_000 }, (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Content-Length': String(body.byteLength) });
  res.end(body);
});
server.listen(Number(portArg), '127.0.0.1', () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
