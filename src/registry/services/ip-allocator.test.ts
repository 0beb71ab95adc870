import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import { errors } from '../../machinery/errors.ts';
import type { RestStorage } from '../rest.ts';
import { parseCidr } from './cidr.ts';
import { IpAllocator } from './ip-allocator.ts';

/** IPAddress storage stand-in: create is the guarded write (AlreadyExists on a taken name). */
function fakeIpStorage(): { storage: RestStorage; objects: Map<string, KObject> } {
  const objects = new Map<string, KObject>();
  const q = (name: string) => ({ group: 'networking.k8s.io', resource: 'ipaddresses', kind: 'IPAddress', name });
  const storage = {
    async create(_c: unknown, obj: KObject) {
      await Promise.resolve();
      const n = obj.metadata.name!;
      if (objects.has(n)) throw errors.alreadyExists(q(n));
      objects.set(n, obj);
      return obj;
    },
    async get(_c: unknown, name: string) {
      const o = objects.get(name);
      if (!o) throw errors.notFound(q(name));
      return { object: o };
    },
    async delete(_c: unknown, name: string) {
      const o = objects.get(name);
      if (!o) throw errors.notFound(q(name));
      objects.delete(name);
      return { object: o, deleted: true };
    },
    async list() { return { items: [...objects.values()].map((object) => ({ object })), resourceVersion: '1' }; },
  } as unknown as RestStorage;
  return { storage, objects };
}

const owner = { namespace: 'default', name: 's' };

test('dynamic allocation fills a small range without the network, broadcast or first address', async () => {
  const { storage, objects } = fakeIpStorage();
  const a = new IpAllocator({ cidr: parseCidr('10.0.0.0/28'), ipAddresses: () => storage });
  const got = await Promise.all(Array.from({ length: 13 }, () => a.allocateNext(owner)));
  assert.equal(new Set(got).size, 13);
  assert.ok(!got.includes('10.0.0.0') && !got.includes('10.0.0.15') && !got.includes('10.0.0.1'));
  await assert.rejects(a.allocateNext(owner), { message: 'range is full' });
  assert.deepEqual((objects.get(got[0]!)!['spec'] as Record<string, unknown>)['parentRef'], { group: '', resource: 'services', namespace: 'default', name: 's' });
});

test('specific addresses: the first one on request, conflicts, range errors, release', async () => {
  const { storage } = fakeIpStorage();
  const a = new IpAllocator({ cidr: parseCidr('10.96.0.0/12'), ipAddresses: () => storage });
  await a.allocate('10.96.0.1', owner);
  await assert.rejects(a.allocate('10.96.0.1', owner), { message: 'provided IP is already allocated' });
  await assert.rejects(a.allocate('10.112.0.1', owner), { message: 'the provided IP (10.112.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12' });
  await assert.rejects(a.allocate('10.96.0.0', owner), /not in the valid range/);
  assert.equal(await a.has('10.96.0.1'), true);
  await a.release('10.96.0.1');
  assert.equal(await a.has('10.96.0.1'), false);
  const dyn = await a.allocateNext(owner);
  // Dynamic addresses come from above the static band (the first 256 of a /12).
  assert.ok(Number(dyn.split('.')[2]) > 0 || Number(dyn.split('.')[3]) > 255, dyn);
  assert.equal(await a.peekFree() !== dyn, true);
});

test('repair drops old IPAddresses no Service holds and keeps young or held ones', async () => {
  const { storage, objects } = fakeIpStorage();
  const a = new IpAllocator({ cidr: parseCidr('10.96.0.0/24'), ipAddresses: () => storage });
  await a.allocate('10.96.0.5', owner);
  await a.allocate('10.96.0.6', { namespace: 'default', name: 'gone' });
  await a.allocate('10.96.0.7', { namespace: 'default', name: 'young' });
  objects.get('10.96.0.5')!.metadata.creationTimestamp = '2020-01-01T00:00:00Z';
  objects.get('10.96.0.6')!.metadata.creationTimestamp = '2020-01-01T00:00:00Z';
  objects.get('10.96.0.7')!.metadata.creationTimestamp = '2030-01-01T00:00:00Z';
  const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'default' }, spec: { clusterIPs: ['10.96.0.5'] } };
  await a.dropOrphans([svc], Date.parse('2025-01-01T00:00:00Z'));
  assert.deepEqual([...objects.keys()].sort(), ['10.96.0.5', '10.96.0.7']);
});
