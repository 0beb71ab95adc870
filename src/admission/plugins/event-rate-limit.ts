/**
 * EventRateLimit (kube's plugin/pkg/admission/eventratelimit, off by default): token buckets that bound how fast
 * core/v1 Events are created or updated — one for the whole server, per namespace, per user, or per event
 * source and involved object — configured by its file (`eventratelimit.admission.k8s.io/v1alpha1`
 * Configuration: `limits` of {type, qps, burst, cacheSize}). A request over any limit is answered 429
 * `Too many requests: limit reached on type <type> for key <key>`; dry runs are not counted. The per-key buckets live in an LRU of
 * `cacheSize` entries (4096 when unset): a key pushed out starts again with a full bucket.
 */
import { OptionsError, StatusError } from '../../machinery/errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionAttributes, type AdmissionPlugin, type PluginContext } from '../types.ts';
import { isObj, str } from './support.ts';

const TYPES = ['Namespace', 'Server', 'SourceAndObject', 'User'] as const;
type LimitType = typeof TYPES[number];
const DEFAULT_CACHE_SIZE = 4096;

export interface Limit {
  readonly type: LimitType;
  readonly qps: number;
  readonly burst: number;
  readonly cacheSize?: number;
}

/** golang.org/x/time/rate's bucket as client-go's token bucket limiter uses it: starts full. */
class TokenBucket {
  #tokens: number;
  #last: number;
  constructor(private readonly qps: number, private readonly burst: number, now: number) {
    this.#tokens = burst;
    this.#last = now;
  }

  tryAccept(now: number): boolean {
    const elapsed = Math.max(0, now - this.#last) / 1000;
    this.#tokens = Math.min(this.burst, this.#tokens + elapsed * this.qps);
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

class Enforcer {
  readonly #buckets = new Map<string, TokenBucket>();
  readonly #size: number;
  constructor(private readonly limit: Limit) {
    this.#size = limit.type === 'Server' ? 1 : (limit.cacheSize || DEFAULT_CACHE_SIZE);
  }

  accept(a: AdmissionAttributes, now: number): string | undefined {
    const key = keyOf(this.limit.type, a);
    let bucket = this.#buckets.get(key);
    if (bucket) {
      this.#buckets.delete(key);
    } else {
      bucket = new TokenBucket(this.limit.qps, this.limit.burst, now);
      if (this.#buckets.size >= this.#size) this.#buckets.delete(this.#buckets.keys().next().value!);
    }
    this.#buckets.set(key, bucket);
    return bucket.tryAccept(now) ? undefined : `limit reached on type ${this.limit.type} for key ${key}`;
  }
}

function keyOf(type: LimitType, a: AdmissionAttributes): string {
  switch (type) {
    case 'Server': return '';
    case 'Namespace': return a.namespace;
    case 'User': return a.user.username;
    case 'SourceAndObject': {
      const e = a.object;
      if (!isObj(e)) return '';
      const source = isObj(e['source']) ? e['source'] : {};
      const io = isObj(e['involvedObject']) ? e['involvedObject'] : {};
      return [source['component'], source['host'], io['kind'], io['namespace'], io['name'], io['uid'], io['apiVersion']].map(str).join('');
    }
  }
}

const goValue = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(v));

/** Reads and validates the plugin's configuration; errors as kube-apiserver refuses to start with them. */
export function parseEventRateLimitConfig(config: unknown): Limit[] {
  const fail = (why: string) => new OptionsError(`couldn't init admission plugin "EventRateLimit": ${why}`);
  const c = isObj(config) ? config : {};
  if (config !== undefined && (c['kind'] !== 'Configuration' || c['apiVersion'] !== 'eventratelimit.admission.k8s.io/v1alpha1')) {
    throw fail(`no kind "${str(c['kind'])}" is registered for version "${str(c['apiVersion'])}" in scheme "k8s.io/kubernetes/plugin/pkg/admission/eventratelimit/config.go"`);
  }
  const limits = Array.isArray(c['limits']) ? c['limits'].map((l) => (isObj(l) ? l : {})) : [];
  const errs: string[] = [];
  if (!limits.length) errs.push('limits: Invalid value: []eventratelimit.Limit(nil): must not be empty');
  limits.forEach((l, i) => {
    const p = `limits[${i}]`;
    if (!(TYPES as readonly unknown[]).includes(l['type'])) errs.push(`${p}.type: Unsupported value: ${JSON.stringify(str(l['type']))}: supported values: ${TYPES.map((t) => `"${t}"`).join(', ')}`);
    const burst = typeof l['burst'] === 'number' ? l['burst'] : 0;
    const qps = typeof l['qps'] === 'number' ? l['qps'] : 0;
    if (burst <= 0) errs.push(`${p}.burst: Invalid value: ${goValue(burst)}: must be positive`);
    if (qps <= 0) errs.push(`${p}.qps: Invalid value: ${goValue(qps)}: must be positive`);
    if (l['type'] !== 'Server' && typeof l['cacheSize'] === 'number' && l['cacheSize'] < 0) {
      errs.push(`${p}.cacheSize: Invalid value: ${goValue(l['cacheSize'])}: must not be negative`);
    }
  });
  if (errs.length) throw fail(errs.length > 1 ? `[${errs.join(', ')}]` : errs[0]!);
  return limits.map((l) => ({ type: l['type'] as LimitType, qps: l['qps'] as number, burst: l['burst'] as number, cacheSize: typeof l['cacheSize'] === 'number' ? l['cacheSize'] : 0 }));
}

export function eventRateLimitPlugin(ctx: PluginContext): AdmissionPlugin {
  const enforcers = parseEventRateLimitConfig(ctx.config).map((l) => new Enforcer(l));
  return {
    name: 'EventRateLimit',
    operations: operations('CREATE', 'UPDATE'),
    validate(a) {
      if (a.kind.group !== '' || a.kind.kind !== 'Event' || a.dryRun) return;
      const now = ctx.now().getTime();
      const refusals = enforcers.map((e) => e.accept(a, now)).filter((r): r is string => r !== undefined);
      if (!refusals.length) return;
      // Every limit counts the request; the refusals are aggregated as Go prints a list of errors.
      const text = refusals.length > 1 ? `[${refusals.join(', ')}]` : refusals[0]!;
      throw new StatusError(429, 'TooManyRequests', `Too many requests: ${text}`);
    },
  };
}

registerPlugin('EventRateLimit', eventRateLimitPlugin);
