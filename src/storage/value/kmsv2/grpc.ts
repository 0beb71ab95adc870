/**
 * A unary gRPC client over HTTP/2 on a unix socket: all kube-apiserver asks of a KMS v2 plugin
 * (`/v2.KeyManagementService/{Status,Encrypt,Decrypt}`). Messages are length-prefixed (1 flag byte, 4 bytes
 * big-endian length) and the outcome is the `grpc-status` trailer. One HTTP/2 session is kept and re-dialed
 * when it closes.
 */
import { connect as netConnect } from 'node:net';
import http2 from 'node:http2';

/** A failed call, with gRPC's status code (14 UNAVAILABLE, 4 DEADLINE_EXCEEDED, …) and message. */
export class GrpcError extends Error {
  override readonly name = 'GrpcError';
  constructor(readonly code: number, readonly details: string) {
    super(`rpc error: code = ${GRPC_CODE_NAMES[code] ?? `Code(${code})`} desc = ${details}`);
  }
}

const GRPC_CODE_NAMES: Record<number, string> = {
  0: 'OK', 1: 'Canceled', 2: 'Unknown', 3: 'InvalidArgument', 4: 'DeadlineExceeded', 5: 'NotFound', 6: 'AlreadyExists',
  7: 'PermissionDenied', 8: 'ResourceExhausted', 9: 'FailedPrecondition', 10: 'Aborted', 11: 'OutOfRange',
  12: 'Unimplemented', 13: 'Internal', 14: 'Unavailable', 15: 'DataLoss', 16: 'Unauthenticated',
};

export function frame(msg: Uint8Array): Buffer {
  const out = Buffer.alloc(5 + msg.length);
  out.writeUInt32BE(msg.length, 1);
  out.set(msg, 5);
  return out;
}

/** Splits a body of length-prefixed messages; a truncated one is an error. */
export function unframe(body: Buffer): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < body.length) {
    if (body.length - at < 5) throw new GrpcError(13, 'truncated gRPC message');
    if (body[at] !== 0) throw new GrpcError(13, 'compressed gRPC messages are not supported');
    const len = body.readUInt32BE(at + 1);
    if (at + 5 + len > body.length) throw new GrpcError(13, 'truncated gRPC message');
    out.push(body.subarray(at + 5, at + 5 + len));
    at += 5 + len;
  }
  return out;
}

export class UnixGrpcClient {
  private session: http2.ClientHttp2Session | undefined;
  private closed = false;

  constructor(private readonly socketPath: string) {}

  private connect(): http2.ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    // Authority "localhost", as kube dials plugins.
    const s = http2.connect('http://localhost', { createConnection: () => netConnect(this.socketPath) });
    s.on('error', () => { /* surfaced per call */ });
    s.on('close', () => {
      if (this.session === s) this.session = undefined;
    });
    s.unref();
    this.session = s;
    return s;
  }

  /** Calls `method` (e.g. `/v2.KeyManagementService/Status`) with one message; resolves with the reply. */
  call(method: string, request: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new GrpcError(1, 'grpc: the client connection is closing'));
    return new Promise<Uint8Array>((resolve, reject) => {
      let session: http2.ClientHttp2Session;
      try {
        session = this.connect();
      } catch (e) {
        reject(new GrpcError(14, (e as Error).message));
        return;
      }
      const stream = session.request({
        ':method': 'POST', ':path': method, 'content-type': 'application/grpc', te: 'trailers',
        'grpc-timeout': `${Math.max(1, Math.ceil(timeoutMs))}m`,
      });
      const chunks: Buffer[] = [];
      let headers: http2.IncomingHttpHeaders = {};
      let settled = false;
      const done = (err: Error | undefined, value?: Uint8Array) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(value!);
      };
      const timer = setTimeout(() => {
        stream.close(http2.constants.NGHTTP2_CANCEL);
        done(new GrpcError(4, 'context deadline exceeded'));
      }, timeoutMs);
      stream.on('response', (h) => { headers = h; });
      stream.on('data', (c: Buffer) => chunks.push(c));
      const finish = (trailers: http2.IncomingHttpHeaders) => {
        const status = Number(trailers['grpc-status'] ?? headers['grpc-status'] ?? 2);
        const message = decodeURIComponent(String(trailers['grpc-message'] ?? headers['grpc-message'] ?? ''));
        if (status !== 0) return done(new GrpcError(status, message));
        try {
          const msgs = unframe(Buffer.concat(chunks));
          if (msgs.length !== 1) return done(new GrpcError(13, `expected one response message, got ${msgs.length}`));
          done(undefined, msgs[0]);
        } catch (e) {
          done(e as Error);
        }
      };
      stream.on('trailers', (t) => finish(t));
      stream.on('end', () => finish({}));
      stream.on('error', (e) => done(new GrpcError(14, `connection error: desc = "transport: Error while dialing: ${e.message}"`)));
      stream.on('close', () => done(new GrpcError(14, 'the stream closed without an answer')));
      stream.end(frame(request));
    });
  }

  close(): void {
    this.closed = true;
    this.session?.close();
    this.session = undefined;
  }
}
