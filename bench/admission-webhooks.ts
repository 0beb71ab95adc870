/**
 * `node --import tsx bench/admission-webhooks.ts`: the server latency admission webhooks add to a create, beyond
 * the webhooks' own time (issue 13 target: ≤ 2 ms for one local mutating + one validating webhook).
 *
 * An in-process server (memory store) and one HTTPS webhook server on 127.0.0.1 (own CA). Per round:
 *   - baseline: ConfigMap creates with no webhook configuration (the same request, same client);
 *   - with webhooks: the same creates with a MutatingWebhookConfiguration (a one-op JSON patch) and a
 *     ValidatingWebhookConfiguration (allow), both selecting the ConfigMaps;
 *   - the webhooks' own time: the AdmissionReviews the server sent, replayed to each webhook by a keep-alive
 *     HTTPS client from this process (TLS, the webhook's handler, the round trip).
 * Added = median(with) − median(baseline) − median(mutating replay) − median(validating replay). Rounds alternate
 * so load drift hits all three alike. Prints a markdown table; `BENCH_QUICK=1` shrinks the counts.
 */
import https from 'node:https';
import os from 'node:os';
import { startTestServer, type TestServer } from '../test/support/server.ts';
import { startWebhookServer, type WebhookServer } from '../test/support/webhook-server.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const ROUNDS = QUICK ? 2 : 5;
const PER_ROUND = QUICK ? 50 : 200;
const WARMUP = QUICK ? 20 : 50;
const TARGET_MS = 2;

type J = Record<string, any>;
const CMS = '/api/v1/namespaces/default/configmaps';
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const PATCH = b64(JSON.stringify([{ op: 'add', path: '/metadata/annotations', value: { mutated: 'yes' } }]));

let seq = 0;
const cm = (): J => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `b-${seq++}`, labels: { bench: 'yes' } }, data: { a: 'b' } });

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function creates(srv: TestServer, n: number, out?: number[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await srv.request('POST', CMS, { body: cm() });
    const ms = performance.now() - t0;
    if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text}`);
    out?.push(ms);
  }
}

function configs(wh: WebhookServer): Array<[string, J]> {
  const hook = (name: string, path: string): J => ({
    name, clientConfig: { url: `${wh.url}${path}`, caBundle: b64(wh.ca.certPem) }, sideEffects: 'None', admissionReviewVersions: ['v1'],
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], objectSelector: { matchLabels: { bench: 'yes' } },
  });
  return [
    ['/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'bench-mutating' }, webhooks: [hook('mutate.bench.example.com', 'mutate')] }],
    ['/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'bench-validating' }, webhooks: [hook('validate.bench.example.com', 'validate')] }],
  ];
}

async function main(): Promise<void> {
  const wh = await startWebhookServer({
    handler(r) {
      const review = r.body as J;
      const mutate = r.path.startsWith('/mutate');
      return { body: { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request?.uid, allowed: true, ...(mutate ? { patch: PATCH, patchType: 'JSONPatch' } : {}) } } };
    },
  });
  const srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
  const agent = new https.Agent({ keepAlive: true, ca: wh.ca.certPem });
  const replay = (path: string, body: string): Promise<number> => new Promise((resolve, reject) => {
    const t0 = performance.now();
    const u = new URL(`${wh.url}${path.slice(1)}`);
    const req = https.request({ agent, method: 'POST', host: u.hostname, port: u.port, path: u.pathname + u.search, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - t0));
    });
    req.on('error', reject);
    req.end(body);
  });

  // CPU of this whole process (server, client, webhook) per operation: steadier than wall time on a loaded machine.
  const cpu = { base: 0, with: 0, replay: 0 };
  const cpuOf = async (into: 'base' | 'with' | 'replay', run: () => Promise<void>): Promise<void> => {
    const c0 = process.cpuUsage();
    await run();
    const c = process.cpuUsage(c0);
    cpu[into] += (c.user + c.system) / 1000;
  };
  const base: number[] = [];
  const withHooks: number[] = [];
  const mutReplay: number[] = [];
  const valReplay: number[] = [];
  try {
    await creates(srv, WARMUP);
    for (let round = 0; round < ROUNDS; round++) {
      await cpuOf('base', () => creates(srv, PER_ROUND, base));
      for (const [path, body] of configs(wh)) {
        const r = await srv.request('POST', path, { body });
        if (r.status !== 201) throw new Error(`configuration: ${r.status} ${r.text}`);
      }
      await new Promise((r) => setTimeout(r, 300));
      const before = wh.requests.length;
      await creates(srv, WARMUP);
      await cpuOf('with', () => creates(srv, PER_ROUND, withHooks));
      if (wh.requests.length - before < 2 * (WARMUP + PER_ROUND)) throw new Error('the webhooks were not called for every create');
      const sent = wh.requests.slice(-2);
      wh.requests.length = 0;
      for (const s of sent) {
        const body = JSON.stringify(s.body);
        const into = s.path.startsWith('/mutate') ? mutReplay : valReplay;
        for (let i = 0; i < WARMUP; i++) await replay(s.path, body);
        await cpuOf('replay', async () => {
          for (let i = 0; i < PER_ROUND; i++) into.push(await replay(s.path, body));
        });
      }
      wh.requests.length = 0;
      for (const [path, body] of configs(wh)) {
        const d = await srv.request('DELETE', `${path}/${(body.metadata as J).name}`);
        if (d.status !== 200) throw new Error(`delete configuration: ${d.status} ${d.text}`);
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  } finally {
    agent.destroy();
    await srv.stop();
    await wh.stop();
  }
  const b = median(base);
  const w = median(withHooks);
  const m = median(mutReplay);
  const v = median(valReplay);
  const added = w - b - m - v;
  const n = ROUNDS * PER_ROUND;
  const cpuBase = cpu.base / n;
  const cpuWith = cpu.with / n;
  const cpuReplay = cpu.replay / n;
  const cpuAdded = cpuWith - cpuBase - cpuReplay;
  const load = os.loadavg().map((x) => x.toFixed(1)).join(' / ');
  console.log(`\n## Admission webhooks\n`);
  console.log(`Measured by \`node --import tsx bench/admission-webhooks.ts\` on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, load average ${load}.`);
  console.log(`${ROUNDS} rounds × ${PER_ROUND} sequential ConfigMap creates over HTTPS keep-alive; medians.\n`);
  console.log('| measurement | value | baseline | ratio | target | meets |');
  console.log('|---|---:|---:|---:|---|---|');
  console.log(`| create with 1 mutating + 1 validating webhook | ${w.toFixed(2)} ms | ${b.toFixed(2)} ms (no webhooks) | ${(w / b).toFixed(2)}× |  |  |`);
  console.log(`| webhooks' own time (replayed reviews: mutating + validating) | ${(m + v).toFixed(2)} ms (${m.toFixed(2)} + ${v.toFixed(2)}) |  |  |  |  |`);
  console.log(`| added server latency beyond the webhooks' own time | ${added.toFixed(2)} ms | ${b.toFixed(2)} ms | ${(added / b).toFixed(2)}× | ≤ ${TARGET_MS} ms | ${added <= TARGET_MS ? 'yes' : 'no'} |`);
  console.log(`| CPU per create (process: server + client + webhook), with webhooks | ${cpuWith.toFixed(2)} ms | ${cpuBase.toFixed(2)} ms | ${(cpuWith / cpuBase).toFixed(2)}× |  |  |`);
  console.log(`| CPU of the replayed calls (client + webhook, both webhooks) | ${cpuReplay.toFixed(2)} ms |  |  |  |  |`);
  console.log(`| added server CPU beyond the replayed calls | ${cpuAdded.toFixed(2)} ms | ${cpuBase.toFixed(2)} ms | ${(cpuAdded / cpuBase).toFixed(2)}× | ≤ ${TARGET_MS} ms | ${cpuAdded <= TARGET_MS ? 'yes' : 'no'} |`);
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
