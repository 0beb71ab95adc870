/**
 * Reads a webhook connection from a kubeconfig-format file (the format of every `--*-webhook-config-file`
 * and of `connectionInfo.kubeConfigFile`): the current context's cluster and user, or the first cluster and
 * first user when no current context is set. File paths are relative to the kubeconfig's directory (as
 * client-go resolves them); `*-data` fields are base64 and win over the path form.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

export interface WebhookConnection {
  readonly url: string;
  readonly caPem?: string;
  readonly certPem?: string;
  readonly keyPem?: string;
  readonly tokenBearer?: string;
  readonly serverName?: string;
  readonly insecureSkipTlsVerify?: boolean;
}

interface Named<T> { name?: unknown; cluster?: T; user?: T; context?: T }
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function pick(list: unknown, key: 'cluster' | 'user' | 'context', name: string | undefined, file: string): Obj | undefined {
  const entries = (Array.isArray(list) ? list : []) as Named<unknown>[];
  const found = name === undefined ? entries[0] : entries.find((e) => isObj(e) && e.name === name);
  if (name !== undefined && !found) throw new Error(`${file}: ${key} ${JSON.stringify(name)} not found`);
  const inner = found?.[key];
  return isObj(inner) ? inner : undefined;
}

async function pem(obj: Obj | undefined, dataKey: string, fileKey: string, dir: string): Promise<string | undefined> {
  if (!obj) return undefined;
  const data = str(obj[dataKey]);
  if (data) return Buffer.from(data, 'base64').toString('utf8');
  const file = str(obj[fileKey]);
  if (file) return readFile(path.resolve(dir, file), 'utf8');
  return undefined;
}

/** Parses the file; throws an Error naming the file and the missing piece when it is not usable. */
export async function loadKubeconfigConnection(file: string): Promise<WebhookConnection> {
  const text = await readFile(file, 'utf8');
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new Error(`${file}: invalid kubeconfig: ${(e as Error).message}`);
  }
  if (!isObj(doc)) throw new Error(`${file}: invalid kubeconfig: not an object`);
  const dir = path.dirname(path.resolve(file));
  const current = str(doc['current-context']);
  let clusterName: string | undefined;
  let userName: string | undefined;
  if (current) {
    const ctx = pick(doc.contexts, 'context', current, file);
    clusterName = str(ctx?.cluster);
    userName = str(ctx?.user);
  }
  const cluster = pick(doc.clusters, 'cluster', clusterName, file);
  const user = userName === undefined && current ? undefined : pick(doc.users, 'user', userName, file);
  const url = str(cluster?.server);
  if (!url) throw new Error(`${file}: invalid kubeconfig: no server found for cluster`);
  const tokenFile = str(user?.tokenFile);
  const token = str(user?.token) ?? (tokenFile ? (await readFile(path.resolve(dir, tokenFile), 'utf8')).trim() : undefined);
  const conn: WebhookConnection = {
    url,
    caPem: await pem(cluster, 'certificate-authority-data', 'certificate-authority', dir),
    certPem: await pem(user, 'client-certificate-data', 'client-certificate', dir),
    keyPem: await pem(user, 'client-key-data', 'client-key', dir),
    tokenBearer: token,
    serverName: str(cluster?.['tls-server-name']),
    insecureSkipTlsVerify: cluster?.['insecure-skip-tls-verify'] === true ? true : undefined,
  };
  if ((conn.certPem === undefined) !== (conn.keyPem === undefined)) {
    throw new Error(`${file}: invalid kubeconfig: client-certificate and client-key must be given together`);
  }
  return conn;
}
