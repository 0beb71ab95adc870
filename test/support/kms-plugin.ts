/**
 * A fake KMS v2 plugin for tests: kube's `v2.KeyManagementService` gRPC service over HTTP/2 on a unix socket.
 * It "encrypts" DEK seeds with AES-GCM under its own key-encryption key and reports `keyID`; tests can change the
 * key ID (rotation) or make it unhealthy, and count the calls it got.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import http2 from 'node:http2';
import { rmSync } from 'node:fs';
import {
  decodeDecryptRequest, decodeEncryptRequest, encodeDecryptResponse, encodeEncryptResponse, encodeStatusResponse,
} from '../../src/storage/value/kmsv2/proto.ts';
import { frame, unframe } from '../../src/storage/value/kmsv2/grpc.ts';

export interface FakeKmsPlugin {
  readonly socketPath: string;
  readonly endpoint: string;
  keyID: string;
  healthz: string;
  readonly calls: { status: number; encrypt: number; decrypt: number };
  stop(): Promise<void>;
}

export async function startFakeKmsPlugin(socketPath: string, keyID = 'key-1'): Promise<FakeKmsPlugin> {
  const kek = randomBytes(32);
  const seal = (p: Uint8Array): Buffer => {
    const nonce = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', kek, nonce);
    return Buffer.concat([nonce, c.update(p), c.final(), c.getAuthTag()]);
  };
  const open = (b: Uint8Array): Buffer => {
    const buf = Buffer.from(b);
    const d = createDecipheriv('aes-256-gcm', kek, buf.subarray(0, 12));
    d.setAuthTag(buf.subarray(buf.length - 16));
    return Buffer.concat([d.update(buf.subarray(12, buf.length - 16)), d.final()]);
  };
  const plugin: FakeKmsPlugin = {
    socketPath,
    endpoint: `unix://${socketPath}`,
    keyID,
    healthz: 'ok',
    calls: { status: 0, encrypt: 0, decrypt: 0 },
    stop: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sessions) s.destroy();
    }),
  };
  const sessions = new Set<http2.ServerHttp2Session>();
  const server = http2.createServer();
  server.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const reply = (status: number, message: string, body?: Uint8Array) => {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': String(status), ...(message ? { 'grpc-message': encodeURIComponent(message) } : {}) }));
        stream.end(body ? frame(body) : undefined);
      };
      try {
        const [req] = unframe(Buffer.concat(chunks));
        switch (headers[':path']) {
          case '/v2.KeyManagementService/Status':
            plugin.calls.status++;
            return reply(0, '', encodeStatusResponse({ version: 'v2', healthz: plugin.healthz, keyID: plugin.keyID }));
          case '/v2.KeyManagementService/Encrypt': {
            plugin.calls.encrypt++;
            const r = decodeEncryptRequest(req ?? new Uint8Array(0));
            return reply(0, '', encodeEncryptResponse({ ciphertext: seal(r.plaintext), keyID: plugin.keyID, annotations: new Map([['kms.example.com', Buffer.from('fake')]]) }));
          }
          case '/v2.KeyManagementService/Decrypt': {
            plugin.calls.decrypt++;
            const r = decodeDecryptRequest(req ?? new Uint8Array(0));
            return reply(0, '', encodeDecryptResponse(open(r.ciphertext)));
          }
          default:
            return reply(12, `unknown method ${String(headers[':path'])}`);
        }
      } catch (e) {
        return reply(13, (e as Error).message);
      }
    });
  });
  rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return plugin;
}
