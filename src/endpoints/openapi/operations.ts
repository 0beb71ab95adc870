/**
 * The REST operations kube-apiserver documents for a resource, as dialect-neutral data: paths, operation
 * ids, actions, parameters, bodies and responses. `render-v2.ts` / `render-v3.ts` turn them into OpenAPI.
 *
 * Layout (namespaced resource R of kind K in group version GV under P = /api/v1 or /apis/<g>/<v>):
 *   P/R                                   list (all namespaces)
 *   P/namespaces/{namespace}/R            list, create, deletecollection
 *   P/namespaces/{namespace}/R/{name}     read, replace, patch, delete (+ /<subresource>)
 *   P/watch/...                           deprecated watch endpoints
 * Cluster-scoped resources drop the namespace segment.
 */
import type { GroupVersionKind } from '../../machinery/objects.ts';
import type { ResourceDef, Verb } from '../../api/types.ts';
import { definitionName, gvIdPart, gvRoot, tagOf } from '../../api/openapi/names.ts';
import { META } from '../../api/openapi/schemas.ts';

export type ParamName =
  | 'allowWatchBookmarks' | 'continue' | 'dryRun' | 'fieldManager' | 'fieldSelector' | 'fieldValidation' | 'force'
  | 'gracePeriodSeconds' | 'ignoreStoreReadErrorWithClusterBreakingPotential' | 'labelSelector' | 'limit' | 'name'
  | 'namespace' | 'orphanDependents' | 'pretty' | 'propagationPolicy' | 'resourceVersion' | 'resourceVersionMatch'
  | 'sendInitialEvents' | 'timeoutSeconds' | 'watch'
  // connect and log options
  | 'command' | 'container' | 'stderr' | 'stdin' | 'stdout' | 'tty' | 'ports' | 'path' | 'pathSegment'
  | 'follow' | 'insecureSkipTLSVerifyBackend' | 'limitBytes' | 'previous' | 'sinceSeconds' | 'stream' | 'tailLines' | 'timestamps';

export interface ParamSpec {
  in: 'query' | 'path';
  type: 'string' | 'boolean' | 'integer';
  description: string;
  required?: boolean;
  /** The parameter's name on the wire when it differs from its key (`{path}` and `?path=` are both "path"). */
  wireName?: string;
}

/** Query and path parameters (descriptions are ours; names and types are kube's). */
export const PARAMS: Record<ParamName, ParamSpec> = {
  allowWatchBookmarks: { in: 'query', type: 'boolean', description: 'Ask for BOOKMARK watch events. Ignored unless this is a watch.' },
  continue: { in: 'query', type: 'string', description: 'Token from a previous chunked list response, to fetch the next chunk with otherwise identical parameters.' },
  dryRun: { in: 'query', type: 'string', description: 'When present, the request is processed but nothing is persisted. Valid value: All.' },
  fieldManager: { in: 'query', type: 'string', description: 'Name of the actor making the change (at most 128 printable characters); required for apply patches.' },
  fieldSelector: { in: 'query', type: 'string', description: 'Restrict the returned objects by their fields. Defaults to everything.' },
  fieldValidation: { in: 'query', type: 'string', description: 'How to treat unknown or duplicate fields in the request object: Ignore, Warn (default) or Strict.' },
  force: { in: 'query', type: 'boolean', description: 'Apply patches only: take ownership of fields managed by others. Must be unset for other patch types.' },
  gracePeriodSeconds: { in: 'query', type: 'integer', description: 'Seconds before the object is deleted; zero means at once. The kind decides when unset.' },
  ignoreStoreReadErrorWithClusterBreakingPotential: { in: 'query', type: 'boolean', description: 'Delete an object that cannot be read from storage, skipping finalizers and preconditions. Unsafe.' },
  labelSelector: { in: 'query', type: 'string', description: 'Restrict the returned objects by their labels. Defaults to everything.' },
  limit: { in: 'query', type: 'integer', description: 'Maximum number of items to return in one list response; more are available through continue.' },
  name: { in: 'path', type: 'string', description: 'name of the object', required: true },
  namespace: { in: 'path', type: 'string', description: 'object name and auth scope, such as for teams and projects', required: true },
  orphanDependents: { in: 'query', type: 'boolean', description: 'Deprecated: use propagationPolicy. Whether dependents are orphaned.' },
  pretty: { in: 'query', type: 'string', description: "If 'true', the output is pretty printed." },
  propagationPolicy: { in: 'query', type: 'string', description: 'How garbage collection treats dependents: Orphan, Background or Foreground.' },
  resourceVersion: { in: 'query', type: 'string', description: 'Constrains which resource versions a request may be served from.' },
  resourceVersionMatch: { in: 'query', type: 'string', description: 'How resourceVersion applies to list calls: Exact or NotOlderThan.' },
  sendInitialEvents: { in: 'query', type: 'boolean', description: 'With watch=true, start with synthetic ADDED events for the current state followed by a bookmark.' },
  timeoutSeconds: { in: 'query', type: 'integer', description: 'Timeout for the list or watch call, regardless of activity.' },
  watch: { in: 'query', type: 'boolean', description: 'Watch for changes to the described resources and return them as a stream of events.' },
  command: { in: 'query', type: 'string', description: 'The command to run, one argument per repetition of the parameter.' },
  container: { in: 'query', type: 'string', description: 'The container to use; may be left out when the pod has one container.' },
  stderr: { in: 'query', type: 'boolean', description: 'Stream the standard error of the process. Defaults to true.' },
  stdin: { in: 'query', type: 'boolean', description: 'Stream standard input to the process. Defaults to false.' },
  stdout: { in: 'query', type: 'boolean', description: 'Stream the standard output of the process. Defaults to true.' },
  tty: { in: 'query', type: 'boolean', description: 'Allocate a terminal for the session. Defaults to false.' },
  ports: { in: 'query', type: 'integer', description: 'Pod ports to forward, one per repetition of the parameter.' },
  path: { in: 'query', type: 'string', description: 'The path to request on the target, when not given in the URL.' },
  pathSegment: { in: 'path', type: 'string', description: 'path to the resource', required: true, wireName: 'path' },
  follow: { in: 'query', type: 'boolean', description: 'Keep streaming new log lines. Defaults to false.' },
  insecureSkipTLSVerifyBackend: { in: 'query', type: 'boolean', description: 'Do not verify the serving certificate of the kubelet the logs come from.' },
  limitBytes: { in: 'query', type: 'integer', description: 'Stop after about this many bytes of log output.' },
  previous: { in: 'query', type: 'boolean', description: 'Logs of the previous, terminated instance of the container. Defaults to false.' },
  sinceSeconds: { in: 'query', type: 'integer', description: 'Only log lines newer than this many seconds.' },
  stream: { in: 'query', type: 'string', description: 'Which stream to return: Stdout, Stderr or All (default).' },
  tailLines: { in: 'query', type: 'integer', description: 'Only this many lines from the end of the log.' },
  timestamps: { in: 'query', type: 'boolean', description: 'Prefix every line with its RFC 3339 timestamp. Defaults to false.' },
};

/** Query options of each connect sub-resource (kube documents them from the *Options kinds). */
const CONNECT_PARAMS: Record<string, ParamName[]> = {
  attach: ['container', 'stderr', 'stdin', 'stdout', 'tty'],
  exec: ['command', 'container', 'stderr', 'stdin', 'stdout', 'tty'],
  portforward: ['ports'],
  proxy: ['path'],
};
/** Connect sub-resources' option kinds are documented as parameters only, never as definitions (as kube). */
export function documentsSubresourceKind(sub: { name: string }): boolean {
  return !(sub.name in CONNECT_PARAMS);
}
const LOG_PARAMS: ParamName[] = ['container', 'follow', 'insecureSkipTLSVerifyBackend', 'limitBytes', 'pretty', 'previous', 'sinceSeconds', 'stream', 'tailLines', 'timestamps'];
const CONNECT_METHODS: Record<string, Method> = { get: 'get', create: 'post', update: 'put', patch: 'patch', delete: 'delete' };

const LIST_PARAMS: ParamName[] = ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch'];
const WRITE_PARAMS: ParamName[] = ['dryRun', 'fieldManager', 'fieldValidation'];
const DELETE_PARAMS: ParamName[] = ['dryRun', 'gracePeriodSeconds', 'ignoreStoreReadErrorWithClusterBreakingPotential', 'orphanDependents', 'propagationPolicy'];
const DELETECOLLECTION_PARAMS: ParamName[] = ['continue', 'dryRun', 'fieldSelector', 'gracePeriodSeconds', 'ignoreStoreReadErrorWithClusterBreakingPotential', 'labelSelector', 'limit', 'orphanDependents', 'propagationPolicy', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds'];

/** What kube's OpenAPI lists on custom resources' PATCH operations. */
export const CUSTOM_RESOURCE_PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];

export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete' | 'head' | 'options';
export type BodyKind = 'object' | 'patch' | 'delete';
/** `single`: one object; `stream`: lists and watches (adds the watch stream media types); `any`: connect (any media type); `log`: text. */
export type Produces = 'single' | 'stream' | 'any' | 'log';

export interface Operation {
  method: Method;
  operationId: string;
  description: string;
  action?: string;
  gvk?: GroupVersionKind;
  params: ParamName[];
  body?: { kind: BodyKind; schema: string };
  /** Status code → definition name (undefined → no body, e.g. 401); `type` for a plain schema (connect: string). */
  responses: Record<string, { description: string; schema?: string; type?: 'string' }>;
  produces: Produces;
  tag: string;
  /** Patch media types of this operation when they differ from the document's (custom resources: no strategic merge). */
  patchTypes?: readonly string[];
}

export interface PathItem {
  path: string;
  params: ParamName[];
  /** Description override for the `name` path parameter (kube says "name of the <Kind>"). */
  nameDescription?: string;
  ops: Operation[];
}

const ok = (schema: string) => ({ '200': { description: 'OK', schema }, '401': { description: 'Unauthorized' } });

/** Every documented path of one resource (with its sub-resources). */
export function resourcePaths(def: ResourceDef): PathItem[] {
  const P = gvRoot(def.group, def.version);
  const GV = gvIdPart(def.group, def.version);
  const tag = tagOf(def.group, def.version);
  const K = def.kind;
  const kindDef = definitionName(def.group, def.version, K);
  const listDef = definitionName(def.group, def.version, def.listKind);
  const gvk: GroupVersionKind = { group: def.group, version: def.version, kind: K };
  const has = (v: Verb) => def.verbs.includes(v);
  const ns = def.namespaced;
  const scope = ns ? 'Namespaced' : '';
  const base = ns ? `${P}/namespaces/{namespace}/${def.resource}` : `${P}/${def.resource}`;
  const nsParams: ParamName[] = ns ? ['namespace'] : [];
  const out: PathItem[] = [];
  // Custom resources take no strategic merge patches (kube's CRD handler lists the other three).
  const patchTypes = def.custom ? CUSTOM_RESOURCE_PATCH_TYPES : undefined;
  const op = (o: Omit<Operation, 'tag'>): Operation => ({ ...o, tag, ...(patchTypes && o.body?.kind === 'patch' ? { patchTypes } : {}) });

  if (ns && has('list')) {
    out.push({ path: `${P}/${def.resource}`, params: [...LIST_PARAMS, 'pretty'], ops: [op({
      method: 'get', operationId: `list${GV}${K}ForAllNamespaces`, description: `list or watch objects of kind ${K}`, action: 'list', gvk,
      params: [], responses: ok(listDef), produces: 'stream',
    })] });
  }

  const collection: Operation[] = [];
  if (has('deletecollection')) {
    collection.push(op({ method: 'delete', operationId: `delete${GV}Collection${scope}${K}`, description: `delete collection of ${K}`, action: 'deletecollection', gvk,
      params: DELETECOLLECTION_PARAMS, body: { kind: 'delete', schema: `${META}.DeleteOptions` }, responses: ok(`${META}.Status`), produces: 'single' }));
  }
  if (has('list')) {
    collection.push(op({ method: 'get', operationId: `list${GV}${scope}${K}`, description: `list or watch objects of kind ${K}`, action: 'list', gvk,
      params: LIST_PARAMS, responses: ok(listDef), produces: 'stream' }));
  }
  if (has('create')) {
    const responses = { '200': { description: 'OK', schema: kindDef }, '201': { description: 'Created', schema: kindDef }, '202': { description: 'Accepted', schema: kindDef }, '401': { description: 'Unauthorized' } };
    collection.push(op({ method: 'post', operationId: `create${GV}${scope}${K}`, description: `create ${article(K)} ${K}`, action: 'post', gvk,
      params: WRITE_PARAMS, body: { kind: 'object', schema: kindDef }, responses, produces: 'single' }));
  }
  if (collection.length) out.push({ path: base, params: [...nsParams, 'pretty'], ops: collection });

  const item: Operation[] = [];
  if (has('delete')) {
    item.push(op({ method: 'delete', operationId: `delete${GV}${scope}${K}`, description: `delete ${article(K)} ${K}`, action: 'delete', gvk,
      params: DELETE_PARAMS, body: { kind: 'delete', schema: `${META}.DeleteOptions` },
      responses: { '200': { description: 'OK', schema: `${META}.Status` }, '202': { description: 'Accepted', schema: `${META}.Status` }, '401': { description: 'Unauthorized' } }, produces: 'single' }));
  }
  if (has('get')) item.push(op({ method: 'get', operationId: `read${GV}${scope}${K}`, description: `read the specified ${K}`, action: 'get', gvk, params: [], responses: ok(kindDef), produces: 'single' }));
  if (has('patch')) item.push(patchOp(op, `patch${GV}${scope}${K}`, `partially update the specified ${K}`, gvk, kindDef));
  if (has('update')) item.push(putOp(op, `replace${GV}${scope}${K}`, `replace the specified ${K}`, gvk, kindDef));
  if (item.length) out.push({ path: `${base}/{name}`, params: ['name', ...nsParams, 'pretty'], nameDescription: `name of the ${K}`, ops: item });

  for (const sub of def.subresources ?? []) {
    const sk = sub.kind ?? gvk;
    const skDef = definitionName(sk.group, sk.version, sk.kind);
    const Sub = sub.name[0]!.toUpperCase() + sub.name.slice(1);
    const subBase = `${base}/{name}/${sub.name}`;
    const connectParams = CONNECT_PARAMS[sub.name];
    if (connectParams && sub.kind) {
      out.push(...connectPaths({ op, subBase, GV, scope, K, Sub, sk, verbs: sub.verbs, params: connectParams, nsParams, withPath: sub.name === 'proxy' }));
      continue;
    }
    if (sub.name === 'log') {
      out.push({ path: subBase, params: ['name', ...nsParams, ...LOG_PARAMS], nameDescription: `name of the ${K}`, ops: [op({
        method: 'get', operationId: `read${GV}${scope}${K}Log`, description: `read log of the specified ${K}`, action: 'get', gvk: sk, params: [],
        responses: { '200': { description: 'OK', type: 'string' }, '401': { description: 'Unauthorized' } }, produces: 'log',
      })] });
      continue;
    }
    const ops: Operation[] = [];
    const what = sub.name === 'status' ? 'status of ' : sub.name === 'scale' ? 'scale of ' : `${sub.name} of `;
    if (sub.verbs.includes('create')) {
      const responses = { '200': { description: 'OK', schema: skDef }, '201': { description: 'Created', schema: skDef }, '202': { description: 'Accepted', schema: skDef }, '401': { description: 'Unauthorized' } };
      ops.push(op({ method: 'post', operationId: `create${GV}${scope}${K}${Sub}`, description: `create ${sub.name} of ${article(K)} ${K}`, action: 'post', gvk: sk,
        params: WRITE_PARAMS, body: { kind: 'object', schema: skDef }, responses, produces: 'single' }));
    }
    if (sub.verbs.includes('get')) ops.push(op({ method: 'get', operationId: `read${GV}${scope}${K}${Sub}`, description: `read ${what}the specified ${K}`, action: 'get', gvk: sk, params: [], responses: ok(skDef), produces: 'single' }));
    if (sub.verbs.includes('patch')) ops.push(patchOp(op, `patch${GV}${scope}${K}${Sub}`, `partially update ${what}the specified ${K}`, sk, skDef));
    if (sub.verbs.includes('update')) ops.push(putOp(op, `replace${GV}${scope}${K}${Sub}`, `replace ${what}the specified ${K}`, sk, skDef));
    if (ops.length) out.push({ path: subBase, params: ['name', ...nsParams, 'pretty'], nameDescription: `name of the ${sk.kind}`, ops });
  }

  if (has('watch')) {
    const W = `${P}/watch`;
    const wparams: ParamName[] = [...LIST_PARAMS, 'pretty'];
    const watchEvent = `${META}.WatchEvent`;
    const wl = (operationId: string, description: string, action: string) =>
      op({ method: 'get', operationId, description, action, gvk, params: [], responses: ok(watchEvent), produces: 'stream' });
    if (ns) {
      out.push({ path: `${W}/${def.resource}`, params: wparams, ops: [wl(`watch${GV}${K}ListForAllNamespaces`, `watch individual changes to a list of ${K}. deprecated: use the 'watch' parameter with a list operation instead.`, 'watchlist')] });
      out.push({ path: `${W}/namespaces/{namespace}/${def.resource}`, params: [...wparams, 'namespace'], ops: [wl(`watch${GV}Namespaced${K}List`, `watch individual changes to a list of ${K}. deprecated: use the 'watch' parameter with a list operation instead.`, 'watchlist')] });
      out.push({ path: `${W}/namespaces/{namespace}/${def.resource}/{name}`, params: [...wparams, 'name', 'namespace'], nameDescription: `name of the ${K}`, ops: [wl(`watch${GV}Namespaced${K}`, `watch changes to an object of kind ${K}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`, 'watch')] });
    } else {
      out.push({ path: `${W}/${def.resource}`, params: wparams, ops: [wl(`watch${GV}${K}List`, `watch individual changes to a list of ${K}. deprecated: use the 'watch' parameter with a list operation instead.`, 'watchlist')] });
      out.push({ path: `${W}/${def.resource}/{name}`, params: [...wparams, 'name'], nameDescription: `name of the ${K}`, ops: [wl(`watch${GV}${K}`, `watch changes to an object of kind ${K}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`, 'watch')] });
    }
  }
  return out.map((p) => ({ ...p, params: [...p.params].sort() }));
}

interface ConnectPathOptions {
  op: (o: Omit<Operation, 'tag'>) => Operation;
  subBase: string;
  GV: string;
  scope: string;
  K: string;
  Sub: string;
  sk: GroupVersionKind;
  verbs: readonly Verb[];
  params: ParamName[];
  nsParams: ParamName[];
  /** Proxies also serve `…/proxy/{path}`; every HTTP method, HEAD and OPTIONS included. */
  withPath: boolean;
}

/** kube's connecter routes: one `connect<Method>…` operation per HTTP method, responses a plain string. */
function connectPaths(c: ConnectPathOptions): PathItem[] {
  const methods: Method[] = c.verbs.map((v) => CONNECT_METHODS[v]).filter((m): m is Method => m !== undefined);
  if (c.withPath) methods.push('head', 'options');
  const ops = (suffix: string): Operation[] => [...methods].sort().map((m) => c.op({
    method: m, operationId: `connect${c.GV}${m[0]!.toUpperCase()}${m.slice(1)}${c.scope}${c.K}${c.Sub}${suffix}`,
    description: `connect ${m.toUpperCase()} requests to ${c.Sub.toLowerCase()} of ${c.K}`, action: 'connect', gvk: c.sk, params: [],
    responses: { '200': { description: 'OK', type: 'string' }, '401': { description: 'Unauthorized' } }, produces: 'any',
  }));
  const items: PathItem[] = [{ path: c.subBase, params: ['name', ...c.nsParams, ...c.params], nameDescription: `name of the ${c.sk.kind}`, ops: ops('') }];
  if (c.withPath) items.push({ path: `${c.subBase}/{path}`, params: ['name', ...c.nsParams, 'pathSegment', ...c.params], nameDescription: `name of the ${c.sk.kind}`, ops: ops('WithPath') });
  return items;
}

function patchOp(op: (o: Omit<Operation, 'tag'>) => Operation, operationId: string, description: string, gvk: GroupVersionKind, schema: string): Operation {
  return op({ method: 'patch', operationId, description, action: 'patch', gvk, params: [...WRITE_PARAMS, 'force'], body: { kind: 'patch', schema: `${META}.Patch` },
    responses: { '200': { description: 'OK', schema }, '201': { description: 'Created', schema }, '401': { description: 'Unauthorized' } }, produces: 'single' });
}

function putOp(op: (o: Omit<Operation, 'tag'>) => Operation, operationId: string, description: string, gvk: GroupVersionKind, schema: string): Operation {
  return op({ method: 'put', operationId, description, action: 'put', gvk, params: WRITE_PARAMS, body: { kind: 'object', schema },
    responses: { '200': { description: 'OK', schema }, '201': { description: 'Created', schema }, '401': { description: 'Unauthorized' } }, produces: 'single' });
}

function article(kind: string): string {
  return /^[AEIOU]/.test(kind) ? 'an' : 'a';
}

/** GET <P>/ : the group version's APIResourceList. */
export function resourceListPath(group: string, version: string): PathItem {
  return { path: `${gvRoot(group, version)}/`, params: [], ops: [{
    method: 'get', operationId: `get${gvIdPart(group, version)}APIResources`, description: 'get available resources',
    params: [], responses: ok(`${META}.APIResourceList`), produces: 'single', tag: tagOf(group, version),
  }] };
}
