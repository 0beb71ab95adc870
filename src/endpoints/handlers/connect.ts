/**
 * Connect sub-resources: `pods/log`, `pods/exec`, `pods/attach`, `pods/portforward`, `pods/proxy`,
 * `services/proxy`, `nodes/proxy` (kube's rest.Connecter and the log getter). They reach a kubelet or a pod,
 * which this server does not run, so what a client meets is what kube-apiserver answers when the backend is
 * missing or unreachable — decided in kube's order:
 *   - the object must exist (404); exec/attach/log name a container: one must be chosen when the pod has several
 *     (400 `a container name must be specified for pod …`), and it must exist (400 `container … is not valid …`);
 *   - an unscheduled pod has no host: exec/attach/portforward are 400 `pod … does not have a host assigned`,
 *     logs are empty (200);
 *   - a scheduled pod's kubelet is dialled at the node's address and kubelet port: logs and node proxies are
 *     forwarded over HTTPS; exec/attach/portforward need a streaming upgrade, refused by name once dialled;
 *   - proxies to pods and services go to a proxyable pod IP (not loopback/link-local: 400 `address not
 *     allowed`); a service needs ready endpoints backed by pods (503 `no endpoints available for service …`).
 * Every failure to reach a backend is a 500 with the dial error, as kube-apiserver reports it.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { KObject } from '../../machinery/objects.ts';
import type { RestRegistry, RestStorage } from '../../registry/rest.ts';
import type { RequestContext } from '../../request/context.ts';
import { errors, StatusError } from '../../machinery/errors.ts';
import { opContext, type HandlerScope } from './scope.ts';
import { commonHeaders } from '../../request/respond.ts';

type J = Record<string, unknown>;

export const CONNECT_SUBRESOURCES: Readonly<Record<string, readonly string[]>> = {
  pods: ['log', 'exec', 'attach', 'portforward', 'proxy'],
  services: ['proxy'],
  nodes: ['proxy'],
};

export function isConnect(resource: string, subresource: string): boolean {
  return CONNECT_SUBRESOURCES[resource]?.includes(subresource) ?? false;
}

export interface ConnectScope {
  readonly scope: HandlerScope;
  readonly registry: RestRegistry;
  /** The raw path after `<resource>/<name>/<subresource>` (proxy sub-paths), with its leading slash or ''. */
  readonly rest: string;
}

const DEFAULT_KUBELET_PORT = 10250;

/** The connect options kind of a sub-resource (v1), as admission sees the request. */
const CONNECT_OPTIONS: Readonly<Record<string, string>> = {
  'pods/exec': 'PodExecOptions', 'pods/attach': 'PodAttachOptions', 'pods/portforward': 'PodPortForwardOptions',
  'pods/proxy': 'PodProxyOptions', 'services/proxy': 'ServiceProxyOptions', 'nodes/proxy': 'NodeProxyOptions',
};

/** The options object built from the query (and the proxy path), as kube decodes it for admission. */
function connectOptions(ctx: RequestContext, kind: string, rest: string): Record<string, unknown> {
  const q = ctx.query;
  const out: Record<string, unknown> = { kind, apiVersion: 'v1' };
  const bool = (k: string) => { const v = q.get(k); if (v === 'true' || v === '1') out[k] = true; };
  if (kind === 'PodExecOptions' || kind === 'PodAttachOptions') {
    for (const k of ['stdin', 'stdout', 'stderr', 'tty']) bool(k);
    const container = q.get('container');
    if (container) out['container'] = container;
    if (kind === 'PodExecOptions') {
      const command = q.getAll('command');
      if (command.length) out['command'] = command;
    }
  } else if (kind === 'PodPortForwardOptions') {
    const ports = q.getAll('ports').flatMap((p) => p.split(',')).map(Number).filter((n) => Number.isInteger(n));
    if (ports.length) out['ports'] = ports;
  } else if (rest) {
    out['path'] = rest;
  }
  return out;
}

/** CONNECT admission (kube's connect handler runs both phases before the connecter); logs are a GET, not admitted. */
async function admitConnect(ctx: RequestContext, c: ConnectScope): Promise<void> {
  const s = c.scope;
  const optionsKind = CONNECT_OPTIONS[`${s.resource}/${s.subresource}`];
  const admission = c.registry.admission?.();
  if (!optionsKind || !admission) return;
  const def = s.storage.def;
  const resource = { group: def.group, version: def.version, resource: def.resource };
  const kind = { group: '', version: 'v1', kind: optionsKind };
  const attrs = {
    operation: 'CONNECT' as const, kind, resource, subresource: s.subresource,
    requestKind: kind, requestResource: resource, requestSubResource: s.subresource,
    name: s.name, namespace: def.namespaced ? s.namespace : '',
    object: connectOptions(ctx, optionsKind, c.rest) as KObject, oldObject: undefined, options: undefined,
    dryRun: false, user: ctx.user, warnings: ctx.warnings, auditAnnotations: (ctx.auditAnnotations ??= {}),
    reinvocation: { requested: false, running: false },
  };
  await admission.admit(attrs);
  await admission.validate(attrs);
}

export async function handleConnect(ctx: RequestContext, c: ConnectScope): Promise<void> {
  const { scope: s } = c;
  await admitConnect(ctx, c);
  if (s.resource === 'services') return proxyToService(ctx, c);
  if (s.resource === 'nodes') return proxyToNode(ctx, c);
  const { name, port, scheme } = s.subresource === 'proxy' ? splitSchemeNamePort(s.name, 'pods') : { name: s.name, port: '', scheme: '' };
  const pod = await getObject(ctx, c, s.storage, name);
  const podSpec = (pod['spec'] ?? {}) as J;
  const nodeName = typeof podSpec['nodeName'] === 'string' ? podSpec['nodeName'] : '';
  switch (s.subresource) {
    case 'log': {
      const container = chooseContainer(pod, ctx.query.get('container') ?? '');
      if (!nodeName) return respondText(ctx, 200, '');
      const node = await kubeletOf(ctx, c, nodeName);
      const q = new URLSearchParams();
      for (const k of ['follow', 'previous', 'sinceSeconds', 'sinceTime', 'tailLines', 'timestamps', 'limitBytes']) {
        const v = ctx.query.get(k);
        if (v !== null) q.set(k, v);
      }
      const path = `/containerLogs/${enc(pod.metadata.namespace ?? '')}/${enc(name)}/${enc(container)}${q.size ? `?${q}` : ''}`;
      return forward(ctx, { scheme: 'https', host: node.host, port: node.port, path, method: 'GET' });
    }
    case 'exec': case 'attach': {
      chooseContainer(pod, ctx.query.get('container') ?? '');
      return refuseStreaming(ctx, c, name, nodeName);
    }
    case 'portforward':
      return refuseStreaming(ctx, c, name, nodeName);
    default: {
      const ip = podIP(pod);
      if (!ip) throw errors.serviceUnavailable(`pod ${JSON.stringify(name)} has no IP`);
      checkProxyable(ip);
      return forward(ctx, { scheme: scheme || 'http', host: ip, port: Number(port || 80), path: c.rest || '/', method: ctx.req.method ?? 'GET' });
    }
  }
}

async function refuseStreaming(ctx: RequestContext, c: ConnectScope, pod: string, nodeName: string): Promise<void> {
  if (!nodeName) throw errors.badRequest(`pod ${pod} does not have a host assigned`);
  const node = await kubeletOf(ctx, c, nodeName);
  await dial(node.host, node.port);
  throw errors.internal(`error dialing backend: streaming ${c.scope.subresource} sessions to the kubelet at ${node.host}:${node.port} is not supported by this server`);
}

async function proxyToService(ctx: RequestContext, c: ConnectScope): Promise<void> {
  const { name, port, scheme } = splitSchemeNamePort(c.scope.name, 'services');
  const svc = await getObject(ctx, c, c.scope.storage, name);
  const spec = (svc['spec'] ?? {}) as J;
  if (spec['type'] === 'ExternalName') {
    const host = String(spec['externalName'] ?? '');
    return forward(ctx, { scheme: scheme || 'http', host, port: Number(port || 80), path: c.rest || '/', method: ctx.req.method ?? 'GET' });
  }
  const ports = (Array.isArray(spec['ports']) ? spec['ports'] : []) as J[];
  // The id's port names a service port by name or number; the endpoints' port is matched by that name.
  const svcPort = port === '' ? ports[0] : ports.find((p) => p['name'] === port || String(p['port']) === port);
  if (!svcPort && port !== '') throw errors.serviceUnavailable(`no service port ${JSON.stringify(port)} found for service ${JSON.stringify(name)}`);
  const portName = String(svcPort?.['name'] ?? '');
  const endpoints = c.registry.lookup('', 'v1', 'endpoints');
  const noEndpoints = () => errors.serviceUnavailable(`no endpoints available for service ${JSON.stringify(name)}`);
  let eps: KObject | undefined;
  try {
    eps = endpoints ? (await endpoints.get(opContext(ctx, c.scope), name, {})).object : undefined;
  } catch (e) {
    if (e instanceof StatusError && e.code === 404) throw noEndpoints();
    throw e;
  }
  const pods = c.registry.lookup('', 'v1', 'pods');
  for (const subset of ((eps?.['subsets'] ?? []) as J[])) {
    for (const p of ((subset['ports'] ?? []) as J[])) {
      if (String(p['name'] ?? '') !== portName) continue;
      for (const addr of ((subset['addresses'] ?? []) as J[])) {
        const ip = String(addr['ip'] ?? '');
        if (!pods || !(await backedByPod(ctx, c, pods, addr, ip))) continue;
        checkProxyable(ip);
        return forward(ctx, { scheme: scheme || 'http', host: ip, port: Number(p['port']), path: c.rest || '/', method: ctx.req.method ?? 'GET' });
      }
    }
  }
  throw noEndpoints();
}

/** kube's isValidAddress: an endpoint address is proxied to only when its targetRef is a pod holding that IP. */
async function backedByPod(ctx: RequestContext, c: ConnectScope, pods: RestStorage, addr: J, ip: string): Promise<boolean> {
  const ref = (addr['targetRef'] ?? {}) as J;
  if (ref['kind'] !== 'Pod' || typeof ref['name'] !== 'string') return false;
  try {
    const pod = (await pods.get({ ...opContext(ctx, c.scope), namespace: String(ref['namespace'] ?? c.scope.namespace), subresource: '' }, ref['name'], {})).object;
    const st = (pod['status'] ?? {}) as J;
    const ips = [st['podIP'], ...(((st['podIPs'] ?? []) as J[]).map((x) => x['ip']))];
    return ips.includes(ip);
  } catch {
    return false;
  }
}

async function proxyToNode(ctx: RequestContext, c: ConnectScope): Promise<void> {
  const { name, port, scheme } = splitSchemeNamePort(c.scope.name, 'nodes');
  const node = await kubeletOf(ctx, c, name);
  return forward(ctx, { scheme: scheme || 'https', host: node.host, port: Number(port || node.port), path: c.rest || '/', method: ctx.req.method ?? 'GET' });
}

/** `name`, `name:port` or `scheme:name:port` (net.SplitSchemeNamePort); anything else is 400. */
function splitSchemeNamePort(id: string, resource: string): { scheme: string; name: string; port: string } {
  const parts = id.split(':');
  let r: { scheme: string; name: string; port: string } | undefined;
  if (parts.length === 1) r = { scheme: '', name: parts[0]!, port: '' };
  else if (parts.length === 2) r = { scheme: '', name: parts[0]!, port: parts[1]! };
  else if (parts.length === 3 && (parts[0] === 'http' || parts[0] === 'https' || parts[0] === '')) r = { scheme: parts[0]!, name: parts[1]!, port: parts[2]! };
  if (!r || !r.name) throw errors.badRequest(`invalid ${resource === 'services' ? 'service' : resource === 'pods' ? 'pod' : 'node'} request ${JSON.stringify(id)}`);
  return r;
}

async function getObject(ctx: RequestContext, c: ConnectScope, storage: RestStorage, name: string): Promise<KObject> {
  return (await storage.get({ ...opContext(ctx, c.scope), subresource: '' }, name, {})).object;
}

/** The container a log/exec/attach request means (kube's validateContainer / default-container annotation). */
function chooseContainer(pod: KObject, asked: string): string {
  const spec = (pod['spec'] ?? {}) as J;
  const names = (k: string) => ((spec[k] ?? []) as J[]).map((x) => String(x['name'] ?? ''));
  const containers = names('containers');
  const inits = names('initContainers');
  const ephemeral = names('ephemeralContainers');
  const podName = pod.metadata.name ?? '';
  if (asked) {
    if (![...containers, ...inits, ...ephemeral].includes(asked)) throw errors.badRequest(`container ${asked} is not valid for pod ${podName}`);
    return asked;
  }
  const preferred = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
  if (preferred && containers.includes(preferred)) return preferred;
  if (containers.length === 1) return containers[0]!;
  let msg = `a container name must be specified for pod ${podName}, choose one of: [${containers.join(' ')}]`;
  if (inits.length) msg += ` or one of the init containers: [${inits.join(' ')}]`;
  if (ephemeral.length) msg += ` or one of the ephemeral containers: [${ephemeral.join(' ')}]`;
  throw errors.badRequest(msg);
}

/** The kubelet of a node: its preferred address (InternalIP, Hostname, ExternalIP) and daemon endpoint port. */
async function kubeletOf(ctx: RequestContext, c: ConnectScope, nodeName: string): Promise<{ host: string; port: number }> {
  const nodes = c.registry.lookup('', 'v1', 'nodes');
  if (!nodes) throw errors.notFound({ kind: 'nodes', name: nodeName });
  const node = (await nodes.get({ ...opContext(ctx, c.scope), namespace: '', subresource: '' }, nodeName, {})).object;
  const st = (node['status'] ?? {}) as J;
  const addrs = (st['addresses'] ?? []) as J[];
  const pick = ['InternalIP', 'Hostname', 'ExternalIP'].map((t) => addrs.find((a) => a['type'] === t)).find(Boolean);
  const port = Number((((st['daemonEndpoints'] ?? {}) as J)['kubeletEndpoint'] as J | undefined)?.['Port'] ?? DEFAULT_KUBELET_PORT) || DEFAULT_KUBELET_PORT;
  if (!pick) throw errors.internal(`no preferred addresses found; known addresses: []`);
  return { host: String(pick['address']), port };
}

function podIP(pod: KObject): string {
  return String(((pod['status'] ?? {}) as J)['podIP'] ?? '');
}

/** proxyutil.IsProxyableIP: never loopback, link-local or unspecified addresses. */
function checkProxyable(ip: string): void {
  const v4 = net.isIPv4(ip);
  const bad = v4
    ? ip.startsWith('127.') || ip.startsWith('169.254.') || ip === '0.0.0.0'
    : ip === '::1' || ip === '::' || ip.toLowerCase().startsWith('fe80:');
  if (bad || !net.isIP(ip)) throw errors.badRequest('address not allowed');
}

function dial(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host, port, timeout: 5000 });
    sock.once('connect', () => { sock.destroy(); resolve(); });
    sock.once('timeout', () => { sock.destroy(); reject(dialError(host, port, 'i/o timeout')); });
    sock.once('error', (e: NodeJS.ErrnoException) => reject(dialError(host, port, e.code === 'ECONNREFUSED' ? 'connect: connection refused' : e.message)));
  });
}

function dialError(host: string, port: number, why: string): StatusError {
  return errors.internal(`error dialing backend: dial tcp ${net.isIPv6(host) ? `[${host}]` : host}:${port}: ${why}`);
}

const enc = encodeURIComponent;

function respondText(ctx: RequestContext, code: number, body: string): void {
  ctx.res.writeHead(code, commonHeaders(ctx, { 'content-type': 'text/plain' }));
  ctx.res.end(body);
}

/** Streams the request to the backend and its answer back (kube's UpgradeAwareHandler without upgrades). */
function forward(ctx: RequestContext, t: { scheme: string; host: string; port: number; path: string; method: string }): Promise<void> {
  const search = t.path.includes('?') ? '' : ctx.url.search;
  const lib = t.scheme === 'https' ? https : http;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(ctx.req.headers)) {
      // Credentials for this server never travel on; hop-by-hop and HTTP/2 pseudo headers do not either.
      if (v === undefined || k.startsWith(':') || ['authorization', 'connection', 'host', 'upgrade', 'keep-alive', 'transfer-encoding'].includes(k) || k.startsWith('impersonate-')) continue;
      headers[k] = v;
    }
    const req = lib.request({ host: t.host, port: t.port, path: t.path + search, method: t.method, headers, rejectUnauthorized: false, timeout: 30_000 }, (res) => {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !['connection', 'keep-alive', 'transfer-encoding'].includes(k)) out[k] = v;
      ctx.res.writeHead(res.statusCode ?? 502, commonHeaders(ctx, out));
      res.pipe(ctx.res);
      res.on('end', () => resolve());
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('i/o timeout')));
    req.on('error', (e: NodeJS.ErrnoException) => {
      reject(e instanceof StatusError ? e : dialError(t.host, t.port, e.code === 'ECONNREFUSED' ? 'connect: connection refused' : e.message));
    });
    ctx.req.pipe(req);
  });
}
