/**
 * The admin kubeconfig: cluster `keelson` with the CA embedded, user `keelson-admin` with the client
 * certificate embedded, context `keelson` selected. Written with mode 0600 (it holds a private key).
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';

export interface KubeconfigInput {
  readonly server: string;
  readonly caPem: string;
  readonly certPem: string;
  readonly keyPem: string;
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');

export function buildKubeconfig(k: KubeconfigInput): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'keelson', cluster: { server: k.server, 'certificate-authority-data': b64(k.caPem) } }],
    users: [{ name: 'keelson-admin', user: { 'client-certificate-data': b64(k.certPem), 'client-key-data': b64(k.keyPem) } }],
    contexts: [{ name: 'keelson', context: { cluster: 'keelson', user: 'keelson-admin' } }],
    'current-context': 'keelson',
    preferences: {},
  });
}

/** Atomic write (temp file + rename) so a reader never sees half a kubeconfig. */
export async function writeKubeconfig(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode: 0o600 });
  await rename(tmp, file);
}

/** `https://127.0.0.1:6443`, with brackets for IPv6 and a loopback address for wildcard binds. */
export function serverUrl(bindAddress: string, port: number): string {
  const host = bindAddress === '0.0.0.0' || bindAddress === '' ? '127.0.0.1' : bindAddress === '::' ? '::1' : bindAddress;
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
