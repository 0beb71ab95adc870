/**
 * A test webhook: HTTPS on 127.0.0.1 (random port) with its own CA, optionally requiring a client certificate,
 * answering each POST with `handler(request)`. Records every request. `writeKubeconfig()` writes a
 * kubeconfig-format connection file pointing at it (for `--*-webhook-config-file` / `connectionInfo`).
 *
 * ```ts
 * const wh = await startWebhookServer({ handler: (r) => ({ body: { ...r.body, status: { allowed: true } } }) });
 * const kubeconfig = await wh.writeKubeconfig(dir);
 * ...
 * await wh.stop();
 * ```
 */
import https from 'node:https';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createCa, issue, type Issued } from '../../src/controlplane/certs.ts';

export interface WebhookRequest {
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: any;
  /** CN of the client certificate, when one was presented. */
  readonly clientCn?: string;
}

export interface WebhookReply {
  readonly status?: number;
  /** JSON-encoded unless a string (sent as is). */
  readonly body?: unknown;
  /** Wait this long before answering (for timeout tests); the wait ends when the server stops. */
  readonly delayMs?: number;
}

export interface WebhookServerOptions {
  handler(req: WebhookRequest): WebhookReply | Promise<WebhookReply>;
  /** Require a client certificate signed by the webhook's CA (the kubeconfig then carries one). */
  readonly requireClientCert?: boolean;
  /** Extra DNS names in the serving certificate (a Service's `<name>.<namespace>.svc`). */
  readonly dnsNames?: readonly string[];
}

export interface WebhookServer {
  readonly url: string;
  readonly ca: Issued;
  /** A client certificate the server accepts (CN `keelson-apiserver`). */
  readonly client: Issued;
  readonly requests: WebhookRequest[];
  /** Writes `<dir>/<name>` (default webhook.kubeconfig) and returns its path. `inline` uses the *-data fields. */
  writeKubeconfig(dir: string, o?: { name?: string; inline?: boolean; withClientCert?: boolean }): Promise<string>;
  stop(): Promise<void>;
}

export async function startWebhookServer(o: WebhookServerOptions): Promise<WebhookServer> {
  const ca = await createCa('webhook-test-ca');
  const serving = await issue({ subject: { cn: 'webhook' }, issuer: ca, usage: 'server', ipAddresses: ['127.0.0.1'], dnsNames: ['localhost', ...(o.dnsNames ?? [])] });
  const client = await issue({ subject: { cn: 'keelson-apiserver' }, issuer: ca, usage: 'client' });
  const requests: WebhookRequest[] = [];
  const waits = new Set<() => void>();
  const server = https.createServer({
    cert: serving.certPem,
    key: serving.keyPem,
    ca: ca.certPem,
    requestCert: true,
    rejectUnauthorized: o.requireClientCert ?? false,
  }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try { body = JSON.parse(text); } catch { body = text; }
        const peer = (req.socket as TLSSocket).getPeerCertificate?.();
        const r: WebhookRequest = { path: req.url ?? '', headers: req.headers, body, clientCn: peer?.subject?.CN as string | undefined };
        requests.push(r);
        let reply: WebhookReply;
        try {
          reply = await o.handler(r);
        } catch (e) {
          reply = { status: 500, body: String(e) };
        }
        if (reply.delayMs) {
          await new Promise<void>((resolve) => {
            const t = setTimeout(() => { waits.delete(done); resolve(); }, reply.delayMs);
            const done = (): void => { clearTimeout(t); resolve(); };
            waits.add(done);
          });
        }
        if (res.destroyed) return;
        const out = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
        res.end(out);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    ca,
    client,
    requests,
    async writeKubeconfig(dir, k = {}) {
      const file = path.join(dir, k.name ?? 'webhook.kubeconfig');
      const withCert = k.withClientCert ?? true;
      const b64 = (s: string): string => Buffer.from(s).toString('base64');
      let caField: string;
      let userFields = '';
      if (k.inline) {
        caField = `certificate-authority-data: ${b64(ca.certPem)}`;
        if (withCert) userFields = `client-certificate-data: ${b64(client.certPem)}\n    client-key-data: ${b64(client.keyPem)}`;
      } else {
        const base = path.basename(file);
        await writeFile(path.join(dir, `${base}.ca.crt`), ca.certPem);
        await writeFile(path.join(dir, `${base}.client.crt`), client.certPem);
        await writeFile(path.join(dir, `${base}.client.key`), client.keyPem);
        caField = `certificate-authority: ${base}.ca.crt`;
        if (withCert) userFields = `client-certificate: ${base}.client.crt\n    client-key: ${base}.client.key`;
      }
      await writeFile(file, [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: webhook',
        '  cluster:',
        `    server: ${url}`,
        `    ${caField}`,
        'users:',
        '- name: apiserver',
        '  user:',
        userFields ? `    ${userFields}` : '    {}',
        'contexts:',
        '- name: webhook',
        '  context: {cluster: webhook, user: apiserver}',
        'current-context: webhook',
        '',
      ].join('\n'));
      return file;
    },
    async stop() {
      for (const w of waits) w();
      waits.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
