/**
 * Reading a request body with kube's size limit (3 MiB): past the limit reading stops and a 413
 * `Request entity too large: limit is 3145728` is thrown. Handlers read bodies through this.
 */
import type { Req } from '../request/context.ts';
import { StatusError } from '../machinery/errors.ts';

export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

export function tooLarge(limit: number): StatusError {
  return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}

export async function readBody(req: Req, opts: { limit?: number; signal?: AbortSignal } = {}): Promise<Buffer> {
  const limit = opts.limit ?? MAX_REQUEST_BODY_BYTES;
  const cl = req.headers['content-length'];
  if (cl !== undefined && Number(cl) > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.pause();
      throw tooLarge(limit);
    }
    chunks.push(chunk);
    if (opts.signal?.aborted) throw new Error('the client closed the request');
  }
  return Buffer.concat(chunks, size);
}
