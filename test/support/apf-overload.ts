/**
 * The priority-and-fairness overload scenario, shared by test/api/apf-overload.test.ts and bench/apf.ts: a
 * real server (memory store unless asked otherwise) with `objects` ConfigMaps of `objectBytes` data each;
 * `listers` users re-list them in a loop, one user floods creates with `floodConcurrency` requests in flight,
 * and exempt traffic (system:masters reads, /readyz and /livez) is timed throughout. Everything stops after
 * `durationMs`. The listers and the flooder run in a worker thread (test/support/apf-load-worker.ts), the
 * server and the exempt samplers on this thread, whose event-loop delay is recorded.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer } from './server.ts';
import { apfCaller, type ApfAnswer, type ApfCaller } from './apf-client.ts';
import type { LoadWorkerInput, LoadWorkerOutput } from './apf-load-worker.ts';
import { openStore } from '../../src/storage/factory.ts';

export interface OverloadOptions {
  readonly objects: number;
  /** Bytes of data in each listed ConfigMap (default 200). */
  readonly objectBytes?: number;
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
  /** The same, split: system:masters reads, and /readyz + /livez. */
  readonly adminMs: number[];
  readonly probeMs: number[];
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
  /** Bytes of the last whole list a lister received. */
  readonly listBytes: number;
  /** The server thread's event-loop delay during the load (ms). */
  readonly loopDelayMaxMs: number;
  readonly loopDelayP99Ms: number;
}

/** Writes `n` ConfigMaps `cm-<i>` of namespace `load` straight into a new sqlite store, as the registry stores them. */
async function preload(dataDir: string, n: number, pad: string): Promise<number> {
  const store = await openStore({ kind: 'sqlite', dataDir, keyPrefix: '/registry/' });
  try {
    const created = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < n; i++) {
      const obj = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: `cm-${i}`, namespace: 'load', uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, creationTimestamp: created, labels: { app: 'load' } }, data: { v: pad } };
      writes.push(store.create(`/registry/configmaps/load/cm-${i}`, Buffer.from(JSON.stringify(obj))));
      // Bounded: the store batches what is pending into one commit.
      if (writes.length >= 4096) await Promise.all(writes.splice(0));
    }
    await Promise.all(writes);
  } finally {
    await store.close();
  }
  return n;
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
  const dataDir = path.join(dir, 'data');
  const pad = 'x'.repeat(o.objectBytes ?? 200);
  const t0 = performance.now();
  // On sqlite the listed objects are written to the database before the server opens it: 20k creates
  // through the API would take minutes on a loaded machine, and creating them is not what is measured.
  const preloaded = (o.storage ?? 'memory') === 'sqlite' ? await preload(dataDir, o.objects, pad) : 0;
  writeFileSync(tokens, users.map((u) => `${u}-token,${u},uid-${u}`).join('\n') + '\n');
  const srv = await startTestServer({
    storage: o.storage ?? 'memory', dataDir, tokenAuthFile: tokens, authorizationMode: ['AlwaysAllow'],
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
    for (const ns of ['load', 'flood']) await admin.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'load' } }, data: { v: pad } });
    // A window of creates in flight rather than batches: the store's group commit and the sockets stay busy.
    let next = preloaded;
    await Promise.all(Array.from({ length: Math.min(128, o.objects) }, async () => {
      while (next < o.objects) {
        const a = await admin.call('POST', '/api/v1/namespaces/load/configmaps', cm(`cm-${next++}`));
        if (a.status !== 201) throw new Error(`setup create failed: ${a.status} ${a.text.slice(0, 200)}`);
      }
    }));
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

    // Open every connection first: a storm of TLS handshakes is not what is measured.
    const prober = caller('prober', 2);
    await Promise.all([safe(prober.call('GET', '/version')), safe(admin.call('GET', '/version'))]);
    const input: LoadWorkerInput = {
      url: srv.url, caPem: srv.caPem, listers: o.listers, floodConcurrency: o.floodConcurrency, durationMs: o.durationMs,
      floodBodyBytes: o.floodBodyBytes ?? 200, listPath: '/api/v1/namespaces/load/configmaps',
    };
    // A worker does not inherit the tsx loader: it registers it, then imports the TypeScript module.
    const boot = `require(${JSON.stringify(new URL(import.meta.resolve('tsx/esm/api')).pathname)}).register(); import(${JSON.stringify(new URL('./apf-load-worker.ts', import.meta.url).href)});`;
    const worker = new Worker(boot, { eval: true, workerData: input });
    const loadDone = new Promise<LoadWorkerOutput>((resolve, reject) => {
      worker.on('message', (m: { out?: LoadWorkerOutput; error?: string }) => {
        if (m.out) resolve(m.out);
        else if (m.error) reject(new Error(m.error));
      });
      worker.on('error', reject);
      worker.on('exit', (code) => reject(new Error(`load worker exited with ${code}`)));
    });
    loadDone.catch(() => {}); // awaited below; a failure before then must not be an unhandled rejection
    await Promise.race([new Promise<void>((resolve) => worker.once('message', () => resolve())), loadDone]);
    const startRss = process.memoryUsage().rss;
    let maxRss = startRss;
    const rssTimer = setInterval(() => (maxRss = Math.max(maxRss, process.memoryUsage().rss)), 250);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const end = performance.now() + o.durationMs;
    const live = () => performance.now() < end;
    const exemptMs: number[] = [];
    const exemptStatuses: Record<string, number> = {};
    const probeStatuses: Record<string, number> = {};
    // Admin reads and probes in loops of their own, so that each is sampled however slow the other is.
    const adminMs: number[] = [];
    const probeMs: number[] = [];
    const sampler = (call: (k: number) => Promise<ApfAnswer>, statuses: Record<string, number>, ms: number[]) => (async () => {
      for (let k = 0; live(); k++) {
        const r = await safe(call(k));
        if (r) {
          exemptMs.push(r.ms);
          ms.push(r.ms);
        }
        count(statuses, r?.status ?? 'error');
        await new Promise((res) => setTimeout(res, 20));
      }
    })();
    const exempt = [
      sampler(() => admin.call('GET', '/api/v1/namespaces/default'), exemptStatuses, adminMs),
      sampler((k) => prober.call('GET', k % 2 ? '/readyz' : '/livez'), probeStatuses, probeMs),
    ];
    let load: LoadWorkerOutput;
    try {
      [load] = await Promise.all([loadDone, ...exempt]);
    } finally {
      clearInterval(rssTimer);
      loop.disable();
      await worker.terminate();
    }
    return {
      exemptMs, adminMs, probeMs, exemptStatuses, probeStatuses, listsPerLister: load.listsPerLister, listerStatuses: load.listerStatuses,
      floodStatuses: load.floodStatuses, floodRetryAfter: load.floodRetryAfter, maxRssBytes: maxRss, startRssBytes: startRss, setupMs,
      listBytes: load.lastListBytes, loopDelayMaxMs: loop.max / 1e6, loopDelayP99Ms: loop.percentile(99) / 1e6,
    };
  } finally {
    for (const c of callers) c.close();
    await srv.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
