/**
 * /metrics: kube-apiserver v1.33's families with their names, labels, buckets and stability levels (from
 * apiserver's endpoints/metrics, endpoints/filters, admission/metrics, authorization/metrics and
 * storage/etcd3/metrics), on the component-base style registry in src/machinery/metrics. The chain's filters,
 * the watch handler, the admission chain and the instrumented store feed one `Metrics`; other features add
 * their own families through `metrics.registry` (e.g. APF's apiserver_flowcontrol_*).
 *
 * Not served because kube v1.33 does not serve them either: apiserver_registered_watchers (removed after its
 * 1.23 deprecation; `apiserver_longrunning_requests{verb="WATCH"}` counts watches).
 */
import type { Counter, Gauge, Histogram } from 'prom-client';
import type { Endpoint, RequestContext, RequestInfo } from '../request/context.ts';
import { respondBytes } from '../request/respond.ts';
import { MetricsRegistry, exponentialBuckets } from '../machinery/metrics/registry.ts';
import type { CounterCell, CounterVec, HistogramCell, HistogramVec } from '../machinery/metrics/series.ts';
import type { StorageMetricsSink } from '../storage/metrics.ts';
import type { ListCost } from '../storage/interface.ts';
import type { AdmissionMetricsSink } from '../admission/chain.ts';
import { KUBE_VERSION } from './version.ts';

/** apiserver_request_duration_seconds' and etcd_request_duration_seconds' buckets. */
export const REQUEST_DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const SLI_BUCKETS = [0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const ADMISSION_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
const WEBHOOK_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25];
const AUTH_BUCKETS = exponentialBuckets(0.001, 2, 15);

/** Request methods kube reports; anything else is `other`. */
const VALID_VERBS = new Set(['APPLY', 'CONNECT', 'CREATE', 'DELETE', 'DELETECOLLECTION', 'GET', 'LIST', 'PATCH', 'POST', 'PROXY', 'PUT', 'UPDATE', 'WATCH', 'WATCHLIST']);
const CONNECT_SUBRESOURCES = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);

/** kube's CleanScope: `resource` for named requests and creates, `namespace`, `cluster`, or '' (non-resource). */
export function scopeLabel(info: RequestInfo): string {
  if (info.name || info.verb === 'create') return 'resource';
  if (info.namespace) return 'namespace';
  return info.isResourceRequest ? 'cluster' : '';
}

/**
 * kube's reported verb: from the HTTP method (GET on a collection is LIST, `?watch=true` is WATCH, apply patches
 * are APPLY, connect sub-resources CONNECT), limited to the known set.
 */
export function reportedVerb(method: string, info: RequestInfo, contentType: string | undefined, query?: URLSearchParams): string {
  let verb = method.toUpperCase();
  const scope = scopeLabel(info);
  if ((verb === 'GET' || verb === 'HEAD') && scope !== 'resource' && scope !== '') verb = 'LIST';
  else if (verb === 'HEAD') verb = 'GET';
  if (info.verb === 'watch') return 'WATCH';
  const w = query?.get('watch');
  if ((verb === 'GET' || verb === 'LIST') && w != null && w.toLowerCase() !== '0' && w.toLowerCase() !== 'false') verb = 'WATCH';
  if (verb === 'PATCH' && contentType === 'application/apply-patch+yaml') verb = 'APPLY';
  if (info.isResourceRequest && info.subresource && CONNECT_SUBRESOURCES.has(info.subresource)) verb = 'CONNECT';
  return VALID_VERBS.has(verb) ? verb : 'other';
}

/** kube's cleanDryRun: the distinct values sorted and joined, `invalid` for anything but `All`. */
export function dryRunLabel(query: URLSearchParams): string {
  const values = query.getAll('dryRun');
  if (values.length === 0) return '';
  if (values.some((v) => v !== 'All')) return 'invalid';
  return [...new Set(values)].sort().join(',');
}

/** kube's compressUsername: well-known internal identities by name, e-mail-like names and the rest in buckets. */
export function compressUsername(name: string): string {
  if (['admin', 'client', 'kube_proxy', 'kubelet', 'system:serviceaccount:kube-system:default'].includes(name)) return name;
  return name.includes('@') ? 'email_id' : 'other';
}

/** Labels of apiserver_requested_deprecated_apis; `removedRelease` is '' when no removal is planned. */
export interface DeprecatedRequestLabels {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly removedRelease: string;
}

export interface RequestLabels {
  readonly verb: string;
  readonly dryRun: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly scope: string;
  readonly code: number;
  /** `apiserver`, or '' for the health endpoints (as kube labels them); default `apiserver`. */
  readonly component?: string;
}

export interface MetricsOptions {
  /** `--show-hidden-metrics-for-version`. */
  readonly showHiddenForVersion?: string;
  /** Register process_* and nodejs_* (default true; unit tests and benchmarks may leave them out). */
  readonly processMetrics?: boolean;
  /** Clock in ms for the in-flight watermark (tests). */
  readonly now?: () => number;
}

type R<L extends string> = Record<L, string>;

/** The store's physical size and, for etcd, the endpoint that answered (the hidden per-endpoint family). */
export interface StorageSize {
  readonly bytes: number;
  readonly endpoint?: string;
}

/** The series one kind of finished request bumps (one label tuple), resolved once and kept. */
interface RequestCells {
  readonly total: CounterCell;
  readonly duration: HistogramCell;
  /** Absent for WATCH and CONNECT (kube leaves them out of the SLI), or for the hidden SLO family. */
  readonly sli?: HistogramCell;
  readonly slo?: HistogramCell;
  /** Only GET and LIST responses are sized; made at the first sized response (no empty series). */
  sizes?: HistogramCell;
  readonly sized: boolean;
  readonly base: R<'component' | 'group' | 'resource' | 'scope' | 'subresource' | 'verb' | 'version'>;
}

export class Metrics implements StorageMetricsSink, AdmissionMetricsSink {
  readonly registry: MetricsRegistry;
  /** Requests in flight now, by kind (the max-in-flight filter keeps these). */
  readonly inflight = { readOnly: 0, mutating: 0 };
  /** The highest in-flight count seen in the current second (kube reports the last second's maximum). */
  readonly #inflightWatermark = { readOnly: 0, mutating: 0, second: 0 };

  readonly #requests: CounterVec<'code' | 'component' | 'dry_run' | 'group' | 'resource' | 'scope' | 'subresource' | 'verb' | 'version'>;
  readonly #duration: HistogramVec<'component' | 'dry_run' | 'group' | 'resource' | 'scope' | 'subresource' | 'verb' | 'version'>;
  readonly #sli: HistogramVec<'component' | 'group' | 'resource' | 'scope' | 'subresource' | 'verb' | 'version'>;
  readonly #slo: HistogramVec<'component' | 'group' | 'resource' | 'scope' | 'subresource' | 'verb' | 'version'>;
  readonly #sizes: HistogramVec<'component' | 'group' | 'resource' | 'scope' | 'subresource' | 'verb' | 'version'>;
  readonly #longRunning: Gauge<'component' | 'group' | 'resource' | 'scope' | 'subresource' | 'verb' | 'version'>;
  readonly #deprecated: Gauge<'group' | 'removed_release' | 'resource' | 'subresource' | 'version'>;
  readonly #watchEvents: Counter<'group' | 'kind' | 'version'>;
  readonly #watchEventSizes: Histogram<'group' | 'kind' | 'version'>;
  readonly #authnAttempts: Counter<'result'>;
  readonly #authnDuration: Histogram<'result'>;
  readonly #authnUsers: Counter<'username'>;
  readonly #authzAttempts: Counter<'result'>;
  readonly #authzDuration: Histogram<'result'>;
  readonly #authzDecisions: Counter<'decision' | 'name' | 'type'>;
  // Observed once per plugin per phase of every write: cells, not prom-client label objects.
  readonly #admissionStep: HistogramVec<'operation' | 'rejected' | 'type'>;
  readonly #admissionController: HistogramVec<'name' | 'operation' | 'rejected' | 'type'>;
  readonly #admissionWebhook: Histogram<'name' | 'operation' | 'rejected' | 'type'>;
  readonly #etcdDuration: Histogram<'operation' | 'type'>;
  readonly #etcdTotal: Counter<'operation' | 'type'>;
  readonly #etcdErrors: Counter<'operation' | 'type'>;
  readonly #storageObjects: Gauge<'resource'>;
  readonly #storageSize: Gauge<'storage_cluster_id'>;
  readonly #storageLists: Counter<'resource'>;
  readonly #storageFetched: Counter<'resource'>;
  readonly #storageEvaluated: Counter<'resource'>;
  readonly #storageReturned: Counter<'resource'>;
  readonly #storageEvents: Counter<'resource'>;
  readonly #now: () => number;
  /** Request cells by label tuple: the hot path builds one string and does one lookup. */
  readonly #requestCells = new Map<string, RequestCells>();
  /** Observing a hidden family costs a hash per request for nothing. */
  readonly #sloShown: boolean;
  #countObjects?: () => Promise<ReadonlyMap<string, number>>;
  #storageBytes?: () => Promise<StorageSize | undefined>;

  constructor(opts: MetricsOptions = {}) {
    const reg = new MetricsRegistry({ currentVersion: { major: Number(KUBE_VERSION.major), minor: Number(KUBE_VERSION.minor) }, showHiddenForVersion: opts.showHiddenForVersion });
    this.registry = reg;
    const now = this.#now = opts.now ?? Date.now;
    const reqLabels = ['component', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'] as const;
    this.#requests = reg.counterVec({
      name: 'apiserver_request_total', stabilityLevel: 'STABLE', labelNames: ['code', 'component', 'dry_run', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'],
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
    });
    this.#duration = reg.histogramVec({
      name: 'apiserver_request_duration_seconds', stabilityLevel: 'STABLE', labelNames: ['component', 'dry_run', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'], buckets: REQUEST_DURATION_BUCKETS,
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
    });
    // Webhook and APF queue time are not subtracted yet: these are upper bounds of kube's SLI.
    this.#sli = reg.histogramVec({
      name: 'apiserver_request_sli_duration_seconds', labelNames: reqLabels, buckets: SLI_BUCKETS,
      help: 'Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.',
    });
    this.#slo = reg.histogramVec({
      name: 'apiserver_request_slo_duration_seconds', labelNames: reqLabels, buckets: SLI_BUCKETS, deprecatedVersion: '1.27.0',
      help: 'Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.',
    });
    this.#sloShown = !reg.hidden.includes('apiserver_request_slo_duration_seconds');
    this.#sizes = reg.histogramVec({
      name: 'apiserver_response_sizes', stabilityLevel: 'STABLE', labelNames: reqLabels, buckets: exponentialBuckets(1000, 10, 7),
      help: 'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
    });
    this.#longRunning = reg.gauge({
      name: 'apiserver_longrunning_requests', stabilityLevel: 'STABLE', labelNames: reqLabels,
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
    });
    this.#deprecated = reg.gauge({
      name: 'apiserver_requested_deprecated_apis', stabilityLevel: 'STABLE', labelNames: ['group', 'removed_release', 'resource', 'subresource', 'version'],
      help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
    });
    const inflight = this.inflight;
    const watermark = this.#inflightWatermark;
    reg.gauge({
      name: 'apiserver_current_inflight_requests', stabilityLevel: 'STABLE', labelNames: ['request_kind'],
      help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      collect(this: Gauge<'request_kind'>) {
        const fresh = watermark.second === Math.floor(now() / 1000);
        this.set({ request_kind: 'mutating' }, Math.max(inflight.mutating, fresh ? watermark.mutating : 0));
        this.set({ request_kind: 'readOnly' }, Math.max(inflight.readOnly, fresh ? watermark.readOnly : 0));
      },
    });
    this.#watchEvents = reg.counter({ name: 'apiserver_watch_events_total', labelNames: ['group', 'kind', 'version'], help: 'Number of events sent in watch clients' });
    this.#watchEventSizes = reg.histogram({
      name: 'apiserver_watch_events_sizes', labelNames: ['group', 'kind', 'version'], buckets: exponentialBuckets(1024, 2, 8), help: 'Watch event size distribution in bytes',
    });
    this.#authnUsers = reg.counter({ name: 'authenticated_user_requests', labelNames: ['username'], help: 'Counter of authenticated requests broken out by username.' });
    this.#authnAttempts = reg.counter({ name: 'authentication_attempts', labelNames: ['result'], help: 'Counter of authenticated attempts.' });
    this.#authnDuration = reg.histogram({ name: 'authentication_duration_seconds', labelNames: ['result'], buckets: AUTH_BUCKETS, help: 'Authentication duration in seconds broken out by result.' });
    this.#authzAttempts = reg.counter({
      name: 'authorization_attempts_total', labelNames: ['result'],
      help: "Counter of authorization attempts broken down by result. It can be either 'allowed', 'denied', 'no-opinion' or 'error'.",
    });
    this.#authzDuration = reg.histogram({ name: 'authorization_duration_seconds', labelNames: ['result'], buckets: AUTH_BUCKETS, help: 'Authorization duration in seconds broken out by result.' });
    this.#authzDecisions = reg.counter({
      name: 'apiserver_authorization_decisions_total', labelNames: ['decision', 'name', 'type'],
      help: 'Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.',
    });
    this.#admissionStep = reg.histogramVec({
      name: 'apiserver_admission_step_admission_duration_seconds', stabilityLevel: 'STABLE', labelNames: ['operation', 'rejected', 'type'], buckets: ADMISSION_BUCKETS,
      help: 'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
    });
    this.#admissionController = reg.histogramVec({
      name: 'apiserver_admission_controller_admission_duration_seconds', stabilityLevel: 'STABLE', labelNames: ['name', 'operation', 'rejected', 'type'], buckets: ADMISSION_BUCKETS,
      help: 'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    });
    this.#admissionWebhook = reg.histogram({
      name: 'apiserver_admission_webhook_admission_duration_seconds', stabilityLevel: 'STABLE', labelNames: ['name', 'operation', 'rejected', 'type'], buckets: WEBHOOK_BUCKETS,
      help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    });
    this.#etcdDuration = reg.histogram({
      name: 'etcd_request_duration_seconds', labelNames: ['operation', 'type'], buckets: REQUEST_DURATION_BUCKETS,
      help: 'Etcd request latency in seconds for each operation and object type.',
    });
    this.#etcdTotal = reg.counter({ name: 'etcd_requests_total', labelNames: ['operation', 'type'], help: 'Etcd request counts for each operation and object type.' });
    this.#etcdErrors = reg.counter({ name: 'etcd_request_errors_total', labelNames: ['operation', 'type'], help: 'Etcd failed request counts for each operation and object type.' });
    const self = this;
    this.#storageObjects = reg.gauge({
      name: 'apiserver_storage_objects', stabilityLevel: 'STABLE', labelNames: ['resource'],
      help: 'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
      async collect(this: Gauge<'resource'>) {
        if (!self.#countObjects) return;
        for (const [resource, n] of await self.#countObjects()) this.set({ resource }, n);
      },
    });
    // kube's storage monitor: one cluster (etcd-0), its size asked at scrape time (etcd's Status dbSize).
    let sizeAtScrape: Promise<StorageSize | undefined> | undefined;
    const storageSize = (): Promise<StorageSize | undefined> => {
      sizeAtScrape ??= (self.#storageBytes?.() ?? Promise.resolve(undefined)).catch(() => undefined).finally(() => {
        sizeAtScrape = undefined;
      });
      return sizeAtScrape;
    };
    this.#storageSize = reg.gauge({
      name: 'apiserver_storage_size_bytes', stabilityLevel: 'STABLE', labelNames: ['storage_cluster_id'],
      help: 'Size of the storage database file physically allocated in bytes.',
      async collect(this: Gauge<'storage_cluster_id'>) {
        const n = await storageSize();
        if (n !== undefined) this.set({ storage_cluster_id: 'etcd-0' }, n.bytes);
      },
    });
    // Deprecated in 1.28 for apiserver_storage_size_bytes: hidden unless --show-hidden-metrics-for-version.
    reg.gauge({
      name: 'apiserver_storage_db_total_size_in_bytes', labelNames: ['endpoint'], deprecatedVersion: '1.28.0',
      help: 'Total size of the storage database file physically allocated in bytes.',
      async collect(this: Gauge<'endpoint'>) {
        const n = await storageSize();
        if (n?.endpoint !== undefined) this.set({ endpoint: n.endpoint }, n.bytes);
      },
    });
    this.#storageLists = reg.counter({ name: 'apiserver_storage_list_total', labelNames: ['resource'], help: 'Number of LIST requests served from storage' });
    this.#storageFetched = reg.counter({ name: 'apiserver_storage_list_fetched_objects_total', labelNames: ['resource'], help: 'Number of objects read from storage in the course of serving a LIST request' });
    this.#storageEvaluated = reg.counter({ name: 'apiserver_storage_list_evaluated_objects_total', labelNames: ['resource'], help: 'Number of objects tested in the course of serving a LIST request from storage' });
    this.#storageReturned = reg.counter({ name: 'apiserver_storage_list_returned_objects_total', labelNames: ['resource'], help: 'Number of objects returned for a LIST request from storage' });
    this.#storageEvents = reg.counter({ name: 'apiserver_storage_events_received_total', labelNames: ['resource'], help: 'Number of etcd events received split by kind.' });
    if (opts.processMetrics ?? true) reg.collectProcessMetrics();
  }

  /** Counts stored objects per resource at scrape time (apiserver_storage_objects); -1 marks a failed count. */
  setObjectCounter(f: () => Promise<ReadonlyMap<string, number>>): void {
    this.#countObjects = f;
  }

  /** The store's size on disk (apiserver_storage_size_bytes), when the backend knows it. */
  setStorageSize(f: () => Promise<StorageSize | undefined>): void {
    this.#storageBytes = f;
  }

  /** Notes a request entering the max-in-flight accounting (for the last second's maximum). */
  noteInflight(): void {
    const w = this.#inflightWatermark;
    const second = Math.floor(this.#now() / 1000);
    if (w.second !== second) {
      w.second = second;
      w.readOnly = 0;
      w.mutating = 0;
    }
    w.readOnly = Math.max(w.readOnly, this.inflight.readOnly);
    w.mutating = Math.max(w.mutating, this.inflight.mutating);
  }

  /** Tracks a long-running request (watch, exec, …) until the returned function is called. */
  trackLongRunning(l: { verb: string; group: string; version: string; resource: string; subresource: string; scope: string }): () => void {
    const labels: R<'component' | 'group' | 'resource' | 'scope' | 'subresource' | 'verb' | 'version'> = {
      component: 'apiserver', group: l.group, resource: l.resource, scope: l.scope, subresource: l.subresource, verb: l.verb, version: l.version,
    };
    this.#longRunning.inc(labels);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#longRunning.dec(labels);
    };
  }

  /** kube's deprecatedRequestGauge: 1 for every deprecated group/version/resource/subresource served. */
  recordDeprecatedRequest(l: DeprecatedRequestLabels): void {
    this.#deprecated.set({ group: l.group, removed_release: l.removedRelease, resource: l.resource, subresource: l.subresource, version: l.version }, 1);
  }

  /** One finished request: counter, latency (seconds), and for GET/LIST the response size in bytes. */
  recordRequest(l: RequestLabels, seconds = 0, responseBytes?: number): void {
    const component = l.component ?? 'apiserver';
    const key = `${l.verb}\u0000${l.code}\u0000${component}\u0000${l.dryRun}\u0000${l.group}\u0000${l.version}\u0000${l.resource}\u0000${l.subresource}\u0000${l.scope}`;
    const c = this.#requestCells.get(key) ?? this.#resolveRequestCells(key, l, component);
    c.total.value += 1;
    c.duration.observe(seconds);
    c.sli?.observe(seconds);
    c.slo?.observe(seconds);
    if (responseBytes !== undefined && c.sized) (c.sizes ??= this.#sizes.cell(c.base)).observe(responseBytes);
  }

  #resolveRequestCells(key: string, l: RequestLabels, component: string): RequestCells {
    const base = { component, group: l.group, resource: l.resource, scope: l.scope, subresource: l.subresource, verb: l.verb, version: l.version };
    const sli = l.verb !== 'WATCH' && l.verb !== 'CONNECT';
    const cells: RequestCells = {
      total: this.#requests.cell({ code: String(l.code), component, dry_run: l.dryRun, group: l.group, resource: l.resource, scope: l.scope, subresource: l.subresource, verb: l.verb, version: l.version }),
      duration: this.#duration.cell({ component, dry_run: l.dryRun, group: l.group, resource: l.resource, scope: l.scope, subresource: l.subresource, verb: l.verb, version: l.version }),
      ...(sli ? { sli: this.#sli.cell(base) } : {}),
      ...(sli && this.#sloShown ? { slo: this.#slo.cell(base) } : {}),
      sized: l.verb === 'GET' || l.verb === 'LIST', base,
    };
    this.#requestCells.set(key, cells);
    return cells;
  }

  recordWatchEvent(group: string, version: string, kind: string, bytes: number): void {
    this.#watchEvents.inc({ group, kind, version });
    this.#watchEventSizes.observe({ group, kind, version }, bytes);
  }

  /** `result`: success, failure (no authenticator recognised the credentials) or error. */
  recordAuthentication(result: 'success' | 'failure' | 'error', seconds: number, username?: string): void {
    if (result === 'success' && username !== undefined) this.#authnUsers.inc({ username: compressUsername(username) });
    this.#authnAttempts.inc({ result });
    this.#authnDuration.observe({ result }, seconds);
  }

  recordAuthorization(result: 'allowed' | 'denied' | 'no-opinion' | 'error', seconds: number): void {
    this.#authzAttempts.inc({ result });
    this.#authzDuration.observe({ result }, seconds);
  }

  /** A terminal decision of one configured authorizer (not the system:masters shortcut, as in kube). */
  recordAuthorizationDecision(type: string, name: string, decision: 'allowed' | 'denied'): void {
    this.#authzDecisions.inc({ decision, name, type });
  }

  observeAdmissionStep(type: 'admit' | 'validate', operation: string, rejected: boolean, seconds: number): void {
    this.#admissionStep.observe({ operation, rejected: String(rejected), type }, seconds);
  }

  observeAdmissionController(name: string, type: 'admit' | 'validate', operation: string, rejected: boolean, seconds: number): void {
    this.#admissionController.observe({ name, operation, rejected: String(rejected), type }, seconds);
  }

  observeAdmissionWebhook(name: string, type: 'admit' | 'validate', operation: string, rejected: boolean, seconds: number): void {
    this.#admissionWebhook.observe({ name, operation, rejected: String(rejected), type }, seconds);
  }

  observeStorageRequest(operation: string, type: string, seconds: number, failed: boolean): void {
    this.#etcdDuration.observe({ operation, type }, seconds);
    this.#etcdTotal.inc({ operation, type });
    if (failed) this.#etcdErrors.inc({ operation, type });
  }

  observeStorageList(type: string, cost: ListCost): void {
    const labels = { resource: type };
    this.#storageLists.inc(labels);
    this.#storageFetched.inc(labels, cost.fetched);
    this.#storageEvaluated.inc(labels, cost.evaluated);
    this.#storageReturned.inc(labels, cost.returned);
  }

  observeStorageEvents(type: string, count: number): void {
    this.#storageEvents.inc({ resource: type }, count);
  }

  /** The Prometheus text exposition of every registered family. */
  render(): Promise<string> {
    return this.registry.render();
  }
}

export function createMetricsEndpoint(metrics: Metrics): Endpoint {
  const serve = async (ctx: RequestContext): Promise<boolean> => {
    respondBytes(ctx, 200, 'text/plain; version=0.0.4; charset=utf-8', await metrics.render());
    return true;
  };
  return (ctx) => (ctx.info.path !== '/metrics' || ctx.info.isResourceRequest ? false : serve(ctx));
}
