/**
 * A minimal /metrics in Prometheus text format (0.0.4): apiserver_request_total and
 * apiserver_current_inflight_requests with kube-apiserver's label names, plus apiserver_requested_deprecated_apis. Counters live in a `Metrics` object
 * the chain feeds; the full metrics set (histograms, storage, watch) comes with prom-client later.
 */
import type { Endpoint, RequestInfo } from '../request/context.ts';
import { respondBytes } from '../request/respond.ts';

function esc(v: string): string {
  if (!/[\\\n"]/.test(v)) return v;
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

/** kube's "reported verb": LIST/WATCH/GET/POST/PUT/PATCH/DELETE/APPLY; the method for non-resource requests. */
export function reportedVerb(method: string, info: RequestInfo, contentType: string | undefined): string {
  if (!info.isResourceRequest) return method.toUpperCase();
  switch (info.verb) {
    case 'list': return 'LIST';
    case 'watch': return 'WATCH';
    case 'get': return 'GET';
    case 'create': return 'POST';
    case 'update': return 'PUT';
    case 'patch': return contentType?.startsWith('application/apply-patch') ? 'APPLY' : 'PATCH';
    case 'delete': case 'deletecollection': return 'DELETE';
    default: return method.toUpperCase();
  }
}

/** Labels of apiserver_requested_deprecated_apis; `removedRelease` is '' when no removal is planned. */
export interface DeprecatedRequestLabels {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly removedRelease: string;
}

export class Metrics {
  private readonly requests = new Map<string, number>();
  readonly inflight = { readOnly: 0, mutating: 0 };
  private readonly longRunning = new Map<string, number>();
  private readonly deprecated = new Set<string>();

  /** Tracks a long-running request (watch, exec, …) until the returned function is called. */
  trackLongRunning(l: { verb: string; group: string; version: string; resource: string; subresource: string; scope: string }): () => void {
    const key = `component="apiserver",group="${esc(l.group)}",resource="${esc(l.resource)}",scope="${esc(l.scope)}",subresource="${esc(l.subresource)}",verb="${esc(l.verb)}",version="${esc(l.version)}"`;
    this.longRunning.set(key, (this.longRunning.get(key) ?? 0) + 1);
    return () => this.longRunning.set(key, (this.longRunning.get(key) ?? 1) - 1);
  }

  /**
   * kube's deprecatedRequestGauge: set to 1 for every deprecated group/version/resource/subresource served
   * (series only ever appear; a restart clears them, as in kube).
   */
  recordDeprecatedRequest(l: DeprecatedRequestLabels): void {
    const key = `group="${esc(l.group)}",removed_release="${esc(l.removedRelease)}",resource="${esc(l.resource)}",subresource="${esc(l.subresource)}",version="${esc(l.version)}"`;
    this.deprecated.add(key);
  }

  recordRequest(l: { verb: string; dryRun: string; group: string; version: string; resource: string; subresource: string; scope: string; code: number }): void {
    const key = `code="${l.code}",component="apiserver",dry_run="${esc(l.dryRun)}",group="${esc(l.group)}",resource="${esc(l.resource)}",scope="${esc(l.scope)}",subresource="${esc(l.subresource)}",verb="${esc(l.verb)}",version="${esc(l.version)}"`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
  }

  render(): string {
    const lines: string[] = [
      '# HELP apiserver_current_inflight_requests [STABLE] Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      '# TYPE apiserver_current_inflight_requests gauge',
      `apiserver_current_inflight_requests{request_kind="mutating"} ${this.inflight.mutating}`,
      `apiserver_current_inflight_requests{request_kind="readOnly"} ${this.inflight.readOnly}`,
      '# HELP apiserver_longrunning_requests [STABLE] Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      '# TYPE apiserver_longrunning_requests gauge',
      ...[...this.longRunning.keys()].sort().map((k) => `apiserver_longrunning_requests{${k}} ${this.longRunning.get(k)}`),
      '# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      '# TYPE apiserver_request_total counter',
    ];
    for (const k of [...this.requests.keys()].sort()) lines.push(`apiserver_request_total{${k}} ${this.requests.get(k)}`);
    // Like Prometheus' client, a vector with no series yet is not written at all.
    if (this.deprecated.size) {
      lines.push(
        '# HELP apiserver_requested_deprecated_apis [STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
        '# TYPE apiserver_requested_deprecated_apis gauge',
        ...[...this.deprecated].sort().map((k) => `apiserver_requested_deprecated_apis{${k}} 1`),
      );
    }
    return lines.join('\n') + '\n';
  }
}

/** The scope label: resource (named), namespace, cluster, or '' for non-resource requests. */
export function scopeLabel(info: RequestInfo): string {
  if (!info.isResourceRequest) return '';
  if (info.name) return 'resource';
  return info.namespace ? 'namespace' : 'cluster';
}

export function createMetricsEndpoint(metrics: Metrics): Endpoint {
  return async (ctx) => {
    if (ctx.info.path !== '/metrics' || ctx.info.isResourceRequest) return false;
    respondBytes(ctx, 200, 'text/plain; version=0.0.4; charset=utf-8', metrics.render());
    return true;
  };
}
