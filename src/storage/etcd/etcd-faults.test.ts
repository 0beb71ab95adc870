/**
 * The etcd backend under faults: an unreachable member among several, and etcd killed and restarted under
 * a live watch. Skipped with a reason when no `etcd` binary is installed.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startEtcd, type EtcdProcess } from '../../../test/support/etcd.ts';
import { StorageUnavailableError, type Store } from '../interface.ts';
import { HOST_DOWN_MS } from './client.ts';
import { openEtcdStore } from './etcd-store.ts';
import { collector, dec, enc } from './test-helpers.ts';

let etcd: EtcdProcess | undefined;
let skipReason: string | false = false;
let n = 0;
const freshPrefix = (): string => `/f${++n}-${process.pid}`;

before(async () => {
  etcd = await startEtcd();
  if (!etcd) skipReason = 'no etcd binary found (install Debian etcd-server or set KEELSON_ETCD_BIN)';
  if (skipReason) console.log(`# SKIP etcd fault tests: ${skipReason}`);
});
after(async () => {
  await etcd?.stop();
});

async function open(prefix: string): Promise<Store> {
  return await openEtcdStore({ servers: [etcd!.endpoint], prefix });
}

describe('etcd store with several members configured', () => {
  it('keeps working when one configured member is unreachable', async (t) => {
    if (skipReason) return t.skip(skipReason);
    const dead = `http://127.0.0.1:${await unusedPort()}`;
    const prefix = freshPrefix();
    const s = await openEtcdStore({ servers: [dead, etcd!.endpoint, dead], prefix });
    try {
      const c = collector();
      s.watch('/m/', { fromRevision: await s.currentRevision() }, c.listener);
      for (let i = 0; i < 30; i++) {
        // Now and then wait out the skip window, so calls really hit the dead member and fail over.
        if (i % 10 === 9) await new Promise((r) => setTimeout(r, HOST_DOWN_MS + 50));
        const r = await s.create(`/m/${i}`, enc(String(i)));
        assert.ok(r.succeeded);
        assert.equal(dec((await s.get(`/m/${i}`))!.value), String(i));
      }
      assert.equal((await s.range('/m/', { countOnly: true })).count, 30);
      await c.until(() => c.events.length >= 30);
      assert.deepEqual(c.events.map((e) => e.kv.key), [...Array(30).keys()].map((i) => `/m/${i}`));
    } finally {
      await s.close();
    }
  });
});

/** A loopback port nobody listens on (bound then released). */
async function unusedPort(): Promise<number> {
  return await new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

describe('etcd store across an etcd restart', () => {
  it('fails ping while etcd is down and resumes watches without gaps or duplicates', async (t) => {
    if (skipReason) return t.skip(skipReason);
    const prefix = freshPrefix();
    const s = await open(prefix);
    const writer = await open(prefix);
    try {
      const start = await s.currentRevision();
      const c = collector();
      s.watch('/r/', { fromRevision: start }, c.listener);
      for (let i = 0; i < 5; i++) await writer.create(`/r/before-${i}`, enc(String(i)));
      await c.until(() => c.events.length >= 5);

      await etcd!.kill();
      await assert.rejects(s.ping!(), StorageUnavailableError);
      await assert.rejects(s.get('/r/before-0'), StorageUnavailableError);
      await etcd!.restart();

      // Writes after the restart: the first may race the client's reconnect, so retry until etcd answers.
      for (let i = 0; i < 5; i++) {
        for (;;) {
          try {
            await writer.create(`/r/after-${i}`, enc(String(i)));
            break;
          } catch (err) {
            assert.ok(err instanceof StorageUnavailableError, String(err));
            await new Promise((r) => setTimeout(r, 50));
          }
        }
      }
      await c.until(() => c.events.length >= 10);
      await s.ping!();
      const keys = c.events.map((e) => e.kv.key);
      assert.deepEqual(keys, [0, 1, 2, 3, 4].map((i) => `/r/before-${i}`).concat([0, 1, 2, 3, 4].map((i) => `/r/after-${i}`)));
      const revs = c.events.map((e) => e.kv.modRevision);
      assert.deepEqual(revs, [...revs].sort((a, b) => a - b));
      assert.equal(new Set(revs).size, revs.length);
      assert.equal(c.error, undefined);
    } finally {
      await s.close();
      await writer.close();
    }
  });
});
