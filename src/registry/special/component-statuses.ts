/**
 * `componentstatuses` (core/v1, deprecated since v1.19, still served by v1.33): get and list only, computed on
 * each request by probing the components the way kube-apiserver does — the scheduler's and the controller
 * manager's secure health ports on this host (10259, 10257; any certificate accepted), and the store
 * (`etcd-<n>`, pinged). Nothing is stored; objects carry no resourceVersion. Label and field selectors apply.
 */
import https from 'node:https';
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import { parseFieldSelector } from '../../machinery/selectors/fields.ts';
import { parseLabelSelector } from '../../machinery/selectors/labels.ts';
import { errors, StatusError } from '../../machinery/errors.ts';
import type { CachedObject, ObjectWatch } from '../../storage/cacher/types.ts';
import type { DeleteResult, ListParams, ListResult, OpContext, RestStorage } from '../rest.ts';

export interface ComponentProbe {
  readonly name: string;
  /** Resolves with the health message ("ok"), rejects with the reason the component is unhealthy. */
  check(): Promise<string>;
}

const notAllowed = (): StatusError =>
  new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});

/** GET https://127.0.0.1:<port>/healthz with a 20 s budget (kube's probe timeout), any serving certificate. */
export function httpsHealthProbe(name: string, port: number, timeoutMs = 20_000): ComponentProbe {
  const url = `https://127.0.0.1:${port}/healthz`;
  return {
    name,
    check: () => new Promise<string>((resolve, reject) => {
      const req = https.get(url, { rejectUnauthorized: false, timeout: timeoutMs }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => { body += c; });
        res.on('end', () => {
          if (res.statusCode === 200) resolve(body);
          else reject(new Error(`unhealthy http status code: ${res.statusCode ?? 0}, message: ${body}`));
        });
      });
      req.on('timeout', () => req.destroy(new Error(`Get "${url}": context deadline exceeded`)));
      req.on('error', (e: NodeJS.ErrnoException) => {
        const why = e.code === 'ECONNREFUSED' ? `dial tcp 127.0.0.1:${port}: connect: connection refused` : e.message;
        reject(new Error(e.message.startsWith('Get "') ? e.message : `Get "${url}": ${why}`));
      });
    }),
  };
}

export class ComponentStatusStorage implements RestStorage {
  constructor(readonly def: ResourceDef, private readonly probes: () => readonly ComponentProbe[]) {}

  async get(_ctx: OpContext, name: string): Promise<CachedObject> {
    const p = this.probes().find((x) => x.name === name);
    if (!p) throw errors.notFound({ kind: 'componentstatuses', name });
    return wrap(await statusOf(p));
  }

  async list(_ctx: OpContext, params: ListParams): Promise<ListResult> {
    const labels = params.labelSelector ? parseLabelSelector(params.labelSelector) : undefined;
    const fields = params.fieldSelector ? parseFieldSelector(params.fieldSelector) : undefined;
    const all = await Promise.all(this.probes().map(statusOf));
    const items = all.filter((o) => (!labels || labels.matches(o.metadata.labels)) && (!fields || fields.matches({ 'metadata.name': o.metadata.name ?? '', 'metadata.namespace': '' })));
    return { items: items.map(wrap), resourceVersion: '' };
  }

  watch(): Promise<ObjectWatch> { return Promise.reject(notAllowed()); }
  create(): Promise<KObject> { return Promise.reject(notAllowed()); }
  update(): Promise<{ object: KObject; created: boolean }> { return Promise.reject(notAllowed()); }
  guaranteedUpdate(): Promise<{ object: KObject; created: boolean }> { return Promise.reject(notAllowed()); }
  delete(): Promise<DeleteResult> { return Promise.reject(notAllowed()); }
  deleteCollection(): Promise<KObject[]> { return Promise.reject(notAllowed()); }
}

async function statusOf(p: ComponentProbe): Promise<KObject> {
  let condition: Record<string, string>;
  try {
    condition = { type: 'Healthy', status: 'True', message: await p.check() };
  } catch (e) {
    condition = { type: 'Healthy', status: 'False', error: (e as Error).message };
  }
  return { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: p.name, creationTimestamp: null }, conditions: [condition] };
}

function wrap(object: KObject): CachedObject {
  const name = object.metadata.name ?? '';
  return {
    key: name, object, encoded: new Map(),
    kv: { key: name, value: new Uint8Array(), createRevision: 0, modRevision: 0, version: 0 },
    attrs: { name, namespace: '', labels: {}, fields: { 'metadata.name': name, 'metadata.namespace': '' } },
  };
}
