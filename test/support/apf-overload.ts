/**
 * The priority-and-fairness overload scenario, shared by test/api/apf-overload.test.ts and bench/apf.ts: a
 * real server (memory store unless asked otherwise) with `objects` ConfigMaps; `listers` users re-list
 * them in a loop, one user floods creates with `floodConcurrency` requests in flight, and exempt traffic
 * (system:masters reads, /readyz and /livez) is timed throughout. Everything stops after `durationMs`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer } from './server.ts';
import { apfCaller, type ApfAnswer, type ApfCaller } from './apf-client.ts';

export interface OverloadOptions {
  readonly objects: number;
  readonly listers: number;
  readonly floodConcurrency: number;
  readonly durationMs: number;
  /** --max-requests-inflight / --max-mutating-requests-inflight (kube's defaults 400/200). */
  readonly maxRequestsInflight?: number;
  readonly maxMutatingRequestsInflight?: number;
  readonly log?: (line: string) => void;
  /** Default memory: the scenario measures the server's CPU and queuing, not the disk's fsync latency. */
  readonly storage?: 'memory' | 'sqlite';
  /** --request-timeout in ms; a request waits at most a quarter of it in a queue (default 60 s). */
  readonly requestTimeoutMs?: number;
  /**
   * Put the flooder in a level of its own (Reject, `floodSeats` shares, no lending or borrowing), as an
   * operator would fence a known noisy client; otherwise it shares global-default with the listers.
   */
  readonly fenceFlooder?: boolean;
  /** Bytes of data in each flood ConfigMap: big bodies arrive in several chunks, so requests overlap. */
  readonly floodBodyBytes?: number;
}

export interface OverloadResult {
  /** Latencies (ms) of exempt requests: admin reads and probes. */
  readonly exemptMs: number[];
  readonly exemptStatuses: Record<string, number>;
  readonly probeStatuses: Record<string, number>;
  /** Successful lists per lister. */
  readonly listsPerLister: number[];
  readonly listerStatuses: Record<string, number>;
  readonly floodStatuses: Record<string, number>;
  /** 429s to the flooder that carried a numeric Retry-After. */
  readonly floodRetryAfter: number;
  readonly maxRssBytes: number;
  readonly startRssBytes: number;
  readonly setupMs: number;
}

export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

const count = (m: Record<string, number>, k: number | string): void => {
  m[k] = (m[k] ?? 0) + 1;
};

export async function runOverload(o: OverloadOptions): Promise<OverloadResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-apf-overload-'));
  const users = ['flooder', 'prober', ...Array.from({ length: o.listers }, (_, i) => `lister-${i}`)];
  const tokens = path.join(dir, 'tokens.csv');
  writeFileSync(tokens, users.map((u) => `${u}-token,${u},uid-${u}`).join('\n') + '\n');
  const srv = await startTestServer({
    storage: o.storage ?? 'memory', dataDir: path.join(dir, 'data'), tokenAuthFile: tokens, authorizationMode: ['AlwaysAllow'],
    ...(o.requestTimeoutMs ? { requestTimeoutMs: o.requestTimeoutMs } : {}),
    maxRequestsInflight: o.maxRequestsInflight ?? 400, maxMutatingRequestsInflight: o.maxMutatingRequestsInflight ?? 200,
  });
  const callers: ApfCaller[] = [];
  const caller = (user: string, sockets = 8): ApfCaller => {
    const c = apfCaller(srv.url, srv.caPem, { token: `${user}-token` }, sockets);
    callers.push(c);
    return c;
  };
  const kc = readFileSync(srv.kubeconfigPath, 'utf8');
  const pem = (k: string) => Buffer.from(new RegExp(`${k}: (\\S+)`).exec(kc)![1]!, 'base64').toString();
  const admin = apfCaller(srv.url, srv.caPem, { certPem: pem('client-certificate-data'), keyPem: pem('client-key-data') }, 256);
  callers.push(admin);
  try {
    const t0 = performance.now();
    for (const ns of ['load', 'flood']) await admin.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'load' } }, data: { v: 'x'.repeat(200) } });
    for (let i = 0; i < o.objects; i += 200) {
      const batch = Array.from({ length: Math.min(200, o.objects - i) }, (_, k) => admin.call('POST', '/api/v1/namespaces/load/configmaps', cm(`cm-${i + k}`)));
      const answers = await Promise.all(batch);
      const bad = answers.find((a) => a.status !== 201);
      if (bad) throw new Error(`setup create failed: ${bad.status} ${bad.text.slice(0, 200)}`);
    }
    const safe = async (p: Promise<ApfAnswer>): Promise<ApfAnswer | undefined> => {
      try {
        return await p;
      } catch {
        return undefined;
      }
    };
    if (o.fenceFlooder) {
      const fc = '/apis/flowcontrol.apiserver.k8s.io/v1';
      await admin.call('POST', `${fc}/prioritylevelconfigurations`, {
        apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'flooder' },
        spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse: { type: 'Reject' } } },
      });
      await admin.call('POST', `${fc}/flowschemas`, {
        apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'flooder' },
        spec: {
          priorityLevelConfiguration: { name: 'flooder' }, matchingPrecedence: 1000,
          rules: [{ subjects: [{ kind: 'User', user: { name: 'flooder' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }] }],
        },
      });
    }
    const setupMs = performance.now() - t0;
    o.log?.(`overload: ${o.objects} objects created in ${(setupMs / 1000).toFixed(1)} s`);

    // Open every connection first: a storm of TLS handshakes (client and server share this process) would
    // otherwise be measured instead of the server's scheduling.
    const flooder = caller('flooder', o.floodConcurrency);
    const listerCallers = Array.from({ length: o.listers }, (_, i) => caller(`lister-${i}`, 1));
    const prober = caller('prober', 2);
    await Promise.all([
      ...Array.from({ length: o.floodConcurrency }, () => safe(flooder.call('GET', '/version'))),
      ...listerCallers.map((c) => safe(c.call('GET', '/version'))),
      safe(prober.call('GET', '/version')), safe(admin.call('GET', '/version')),
    ]);
    const startRss = process.memoryUsage().rss;
    let maxRss = startRss;
    const rssTimer = setInterval(() => (maxRss = Math.max(maxRss, process.memoryUsage().rss)), 250);
    const end = performance.now() + o.durationMs;
    const live = () => performance.now() < end;
    const exemptMs: number[] = [];
    const exemptStatuses: Record<string, number> = {};
    const probeStatuses: Record<string, number> = {};
    const listerStatuses: Record<string, number> = {};
    const floodStatuses: Record<string, number> = {};
    const listsPerLister = Array.from({ length: o.listers }, () => 0);
    let floodRetryAfter = 0;

    const listers = Array.from({ length: o.listers }, async (_, i) => {
      const c = listerCallers[i]!;
      while (live()) {
        const r = await safe(c.call('GET', '/api/v1/namespaces/load/configmaps'));
        count(listerStatuses, r?.status ?? 'error');
        if (r?.status === 200) listsPerLister[i]!++;
        else if (r?.status === 429) await new Promise((res) => setTimeout(res, 100));
      }
    });
    let seq = 0;
    const pad = 'y'.repeat(o.floodBodyBytes ?? 200);
    const floodCm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: pad } });
    const floods = Array.from({ length: o.floodConcurrency }, async () => {
      while (live()) {
        const r = await safe(flooder.call('POST', '/api/v1/namespaces/flood/configmaps', floodCm(`f-${seq++}`)));
        count(floodStatuses, r?.status ?? 'error');
        if (r?.status === 429 && /^\d+$/.test(String(r.headers['retry-after']))) floodRetryAfter++;
      }
    });
    // Admin reads and probes in loops of their own, so that each is sampled however slow the other is.
    const sampler = (call: (k: number) => Promise<ApfAnswer>, statuses: Record<string, number>) => (async () => {
      for (let k = 0; live(); k++) {
        const r = await safe(call(k));
        if (r) exemptMs.push(r.ms);
        count(statuses, r?.status ?? 'error');
        await new Promise((res) => setTimeout(res, 20));
      }
    })();
    const exempt = [
      sampler(() => admin.call('GET', '/api/v1/namespaces/default'), exemptStatuses),
      sampler((k) => prober.call('GET', k % 2 ? '/readyz' : '/livez'), probeStatuses),
    ];
    await Promise.all([...listers, ...floods, ...exempt]);
    clearInterval(rssTimer);
    return { exemptMs, exemptStatuses, probeStatuses, listsPerLister, listerStatuses, floodStatuses, floodRetryAfter, maxRssBytes: maxRss, startRssBytes: startRss, setupMs };
  } finally {
    for (const c of callers) c.close();
    await srv.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
