/**
 * Reads across two replicas on one etcd (issue 15, item 3): a write acknowledged by A is seen at once by a
 * GET and a LIST with resourceVersion unset on B (quorum reads: B's watch cache is asked for etcd's current
 * revision, and B reads etcd itself when its cache cannot confirm it promptly), while resourceVersion="0" and
 * watches on B may lag only by B's watch cache. Skips (printing why) when no etcd binary is installed.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startReplicasOnEtcd, type EtcdReplicas } from '../support/etcd-replicas.ts';
import { eventually, type TestServer } from '../support/server.ts';

let replicas: EtcdReplicas | undefined;
let a: TestServer | undefined;
let b: TestServer | undefined;
let skip: string | false = false;

before(async () => {
  replicas = await startReplicasOnEtcd(2, { etcdPrefix: `/keelson-ha-reads-${process.pid}`, authorizationMode: ['AlwaysAllow'] });
  if (!replicas) {
    skip = 'no etcd binary (install etcd-server or set KEELSON_ETCD_BIN)';
    process.stderr.write(`skipping HA consistent-read tests: ${skip}\n`);
    return;
  }
  [a, b] = replicas.servers;
});

after(async () => {
  await replicas?.stop();
});

const base = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, v: string): unknown => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v } });

void test('a write acknowledged by one replica is read at once by GET and LIST (rv unset) on the other', async (t) => {
  if (skip) return t.skip(skip);
  for (let i = 0; i < 8; i++) {
    const name = `read-${i}`;
    const c = await a!.request('POST', base, { body: cm(name, String(i)) });
    assert.equal(c.status, 201, c.text);
    const rv = c.json().metadata.resourceVersion as string;

    const g = await b!.request('GET', `${base}/${name}`);
    assert.equal(g.status, 200, `GET on B right after the create on A: ${g.text}`);
    assert.equal(g.json().metadata.resourceVersion, rv);

    const l = await b!.request('GET', `${base}?labelSelector=`);
    assert.equal(l.status, 200, l.text);
    const list = l.json();
    assert.ok(Number(list.metadata.resourceVersion) >= Number(rv), `list rv ${list.metadata.resourceVersion} < write rv ${rv}`);
    assert.ok(list.items.some((o: { metadata: { name: string } }) => o.metadata.name === name), `LIST on B misses ${name}`);

    // An update on A is read back on B with its new content, never the old one.
    const u = await a!.request('PUT', `${base}/${name}`, { body: { ...(c.json() as object), data: { v: `${i}-updated` } } });
    assert.equal(u.status, 200, u.text);
    const g2 = await b!.request('GET', `${base}/${name}`);
    assert.equal(g2.json().data.v, `${i}-updated`);
    assert.equal(g2.json().metadata.resourceVersion, u.json().metadata.resourceVersion);
  }
});

void test('rv="0" reads and watches on the other replica catch up through its watch cache', async (t) => {
  if (skip) return t.skip(skip);
  const start = (await b!.request('GET', base)).json().metadata.resourceVersion as string;
  const w = await b!.watch(`${base}?watch=1&resourceVersion=${start}`);
  try {
    const names: string[] = [];
    let last = '';
    for (let i = 0; i < 10; i++) {
      const c = await a!.request('POST', base, { body: cm(`lag-${i}`, String(i)) });
      assert.equal(c.status, 201, c.text);
      names.push(`lag-${i}`);
      last = c.json().metadata.resourceVersion as string;
    }
    // Bounded: B's cache follows its etcd watch; 10 s is far above the lag the benchmark measures.
    await eventually('rv=0 list on B shows every write', async () => {
      const l = (await b!.request('GET', `${base}?resourceVersion=0`)).json();
      return names.every((n) => l.items.some((o: { metadata: { name: string } }) => o.metadata.name === n));
    }, 10_000);
    const seen: string[] = [];
    while (seen.length < names.length) {
      const e = await w.next(10_000);
      // Controllers on both replicas may touch other ConfigMaps here (kube-root-ca.crt); only ours count.
      if (!String(e.object.metadata.name).startsWith('lag-')) continue;
      assert.equal(e.type, 'ADDED');
      seen.push(e.object.metadata.name as string);
    }
    assert.deepEqual(seen, names, 'the watch on B delivers A\'s writes in order, none missing');
    const g = await b!.request('GET', `${base}/lag-9?resourceVersion=0`);
    assert.equal(g.json().metadata.resourceVersion, last);
  } finally {
    w.close();
  }
});
