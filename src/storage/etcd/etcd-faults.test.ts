/**
 * The etcd backend under faults: an unreachable member among several, etcd killed and restarted under a
 * live watch, and each member of a 3-member cluster killed and restarted in turn. Skipped with a reason when no `etcd` binary is installed.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startEtcd, startEtcdCluster, type EtcdProcess } from '../../../test/support/etcd.ts';
import { StorageUnavailableError, type Store } from '../interface.ts';
import { HOST_DOWN_MS } from './client.ts';
import { openEtcdStore } from './etcd-store.ts';
import { collector, dec, enc } from './testing/helpers.ts';

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

describe('etcd store against a 3-member cluster', () => {
  it('keeps serving and watching while each member in turn is killed and restarted', async (t) => {
    if (skipReason) return t.skip(skipReason);
    const cluster = await startEtcdCluster({ members: 3 });
    assert.ok(cluster);
    try {
      const prefix = freshPrefix();
      const s = await openEtcdStore({ servers: cluster.endpoints, prefix });
      try {
        const c = collector();
        s.watch('/h/', { fromRevision: await s.currentRevision() }, c.listener);
        let written = 0;
        /** Writes that hit a member while it dies may fail as unavailable; those are retried (never doubled). */
        const write = async (): Promise<void> => {
          const key = `/h/${String(written).padStart(3, '0')}`;
          for (;;) {
            try {
              const r = await s.create(key, enc(String(written)));
              // A create whose first attempt committed but whose answer was lost fails its guard on retry.
              if (!r.succeeded) assert.equal(dec(r.current!.value), String(written));
              break;
            } catch (err) {
              assert.ok(err instanceof StorageUnavailableError, String(err));
              await new Promise((r) => setTimeout(r, 50));
            }
          }
          written++;
        };
        for (let i = 0; i < 5; i++) await write();
        for (const member of cluster.members) {
          await member.kill();
          for (let i = 0; i < 5; i++) await write();
          await s.ping!();
          await member.restart();
          for (let i = 0; i < 5; i++) await write();
        }
        await c.until(() => c.events.length >= written);
        const keys = c.events.map((e) => e.kv.key);
        assert.deepEqual(keys, [...Array(written).keys()].map((i) => `/h/${String(i).padStart(3, '0')}`));
        const revs = c.events.map((e) => e.kv.modRevision);
        assert.deepEqual(revs, [...revs].sort((a, b) => a - b));
        assert.equal(c.error, undefined);
        assert.equal((await s.range('/h/', { countOnly: true })).count, written);
      } finally {
        await s.close();
      }
    } finally {
      await cluster.stop();
    }
  });
});

describe('opening against a server that is not (or not yet) etcd', () => {
  it('gives up after dialTimeoutMs with StorageUnavailableError, for refused and for silent addresses', async () => {
    // Refused: nothing listens.
    await assert.rejects(
      openEtcdStore({ servers: [`http://127.0.0.1:${await unusedPort()}`], dialTimeoutMs: 300 }),
      (e: unknown) => e instanceof StorageUnavailableError && /did not answer within 300 ms/.test(e.message),
    );
    // Silent: accepts TCP connections and never answers (a hung host); the open must still end.
    const sockets: Array<{ destroy(): void }> = [];
    const silent = createServer((sock) => sockets.push(sock)).listen(0, '127.0.0.1');
    await new Promise((r) => silent.once('listening', r));
    try {
      const port = (silent.address() as { port: number }).port;
      await assert.rejects(openEtcdStore({ servers: [`http://127.0.0.1:${port}`], dialTimeoutMs: 300 }), StorageUnavailableError);
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise((r) => silent.close(r));
    }
  });
});
