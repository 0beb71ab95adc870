import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import { StatusError } from '../../machinery/errors.ts';
import { createCrdConverter } from './index.ts';
import { startConversionWebhook, type ConversionWebhook } from '../../../test/support/conversion-webhook.ts';

const crd = (conversion: unknown): KObject => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
  metadata: { name: 'crontabs.stable.example.com' },
  spec: { group: 'stable.example.com', conversion },
});

const cr = (apiVersion: string, spec: Record<string, unknown>): KObject => ({
  apiVersion, kind: 'CronTab', metadata: { name: 'a', namespace: 'ns', uid: 'u1', labels: { x: '1' } }, spec,
});

/** v1 has spec.cronSpec; v2 splits it into spec.schedule. */
function convert(o: Record<string, any>, to: string): Record<string, any> {
  if (to === 'stable.example.com/v2') {
    o.spec = { schedule: o.spec.cronSpec };
  } else {
    o.spec = { cronSpec: o.spec.schedule };
  }
  o.apiVersion = to;
  return o;
}

describe('None conversion', () => {
  it('rewrites only apiVersion', async () => {
    const c = createCrdConverter(crd({ strategy: 'None' }));
    assert.equal(c.strategy, 'None');
    const out = await c.convert(cr('stable.example.com/v1', { cronSpec: '* * * * *' }), 'stable.example.com/v2');
    assert.equal(out.apiVersion, 'stable.example.com/v2');
    assert.deepEqual(out['spec'], { cronSpec: '* * * * *' });
  });
});

describe('Webhook conversion', () => {
  let wh: ConversionWebhook;
  let mode: 'ok' | 'fail' | 'bad-uid' | 'wrong-version' | 'rename' | 'labels' = 'ok';
  before(async () => {
    wh = await startConversionWebhook({
      convert(o, to) {
        if (mode === 'fail') throw new Error('cannot convert this one');
        const out = convert(o, to);
        if (mode === 'wrong-version') out.apiVersion = 'stable.example.com/v3';
        if (mode === 'rename') out.metadata.name = 'other';
        if (mode === 'labels') {
          out.metadata.labels = { y: '2' };
          out.metadata.resourceVersion = '999';
        }
        return out;
      },
      override(req) {
        if (mode !== 'bad-uid') return undefined;
        return { body: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: 'nope', result: { status: 'Success' }, convertedObjects: [] } } };
      },
    });
  });
  after(async () => wh.stop());
  const conv = () => createCrdConverter(crd({ strategy: 'Webhook', webhook: { clientConfig: wh.clientConfig, conversionReviewVersions: ['v1'] } }));

  it('sends a v1 ConversionReview and returns the converted object', async () => {
    mode = 'ok';
    const out = await conv().convert(cr('stable.example.com/v1', { cronSpec: '5 * * * *' }), 'stable.example.com/v2');
    assert.deepEqual(out['spec'], { schedule: '5 * * * *' });
    assert.equal(out.apiVersion, 'stable.example.com/v2');
    const review = wh.reviews.at(-1)!;
    assert.equal(review.apiVersion, 'apiextensions.k8s.io/v1');
    assert.equal(review.request.desiredAPIVersion, 'stable.example.com/v2');
    assert.equal(review.request.objects.length, 1);
  });

  it('accepts replies larger than the generic webhook client\'s 3 MiB default', async () => {
    mode = 'ok';
    const big = 'x'.repeat(4 * 1024 * 1024);
    const out = await conv().convert(cr('stable.example.com/v1', { cronSpec: big }), 'stable.example.com/v2');
    assert.equal((out['spec'] as { schedule: string }).schedule.length, big.length);
  });

  it('skips objects already in the desired version and converts lists in one review', async () => {
    mode = 'ok';
    const n = wh.reviews.length;
    const out = await conv().convertMany([
      cr('stable.example.com/v2', { schedule: 'a' }), cr('stable.example.com/v1', { cronSpec: 'b' }),
    ], 'stable.example.com/v2');
    assert.deepEqual(out.map((o) => o['spec']), [{ schedule: 'a' }, { schedule: 'b' }]);
    assert.equal(wh.reviews.length, n + 1);
    assert.equal(wh.reviews.at(-1)!.request.objects.length, 1);
    await conv().convert(cr('stable.example.com/v2', { schedule: 'a' }), 'stable.example.com/v2');
    assert.equal(wh.reviews.length, n + 1, 'no call when nothing to convert');
  });

  const failsWith = async (message: string) => {
    await assert.rejects(conv().convert(cr('stable.example.com/v1', { cronSpec: 'x' }), 'stable.example.com/v2'), (e: unknown) => {
      assert.ok(e instanceof StatusError);
      assert.equal(e.code, 500);
      assert.equal(e.message, `Internal error occurred: ${message}`);
      return true;
    });
  };

  it('a failed result surfaces the webhook message as a 500', async () => {
    mode = 'fail';
    await failsWith('conversion webhook for stable.example.com/v1, Kind=CronTab failed: cannot convert this one');
  });

  it('a reply for another uid is refused', async () => {
    mode = 'bad-uid';
    await assert.rejects(conv().convert(cr('stable.example.com/v1', { cronSpec: 'x' }), 'stable.example.com/v2'),
      (e: unknown) => e instanceof StatusError && /failed: expected response\.uid=".*", got "nope"$/.test(e.message));
  });

  it('the wrong apiVersion or a changed name is refused', async () => {
    mode = 'wrong-version';
    await failsWith('conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid object at index 0: invalid groupVersion (expected stable.example.com/v2, received stable.example.com/v3)');
    mode = 'rename';
    await failsWith('conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid object: must have the same name: a != other');
  });

  it('keeps the original metadata but the webhook\'s labels', async () => {
    mode = 'labels';
    const out = await conv().convert(cr('stable.example.com/v1', { cronSpec: 'x' }), 'stable.example.com/v2');
    assert.deepEqual(out.metadata, { name: 'a', namespace: 'ns', uid: 'u1', labels: { y: '2' } });
  });

  it('an unreachable webhook fails with the transport error', async () => {
    const c = createCrdConverter(crd({ strategy: 'Webhook', webhook: { clientConfig: { url: 'https://127.0.0.1:1/convert' }, conversionReviewVersions: ['v1'] } }), { timeoutMs: 2000 });
    await assert.rejects(c.convert(cr('stable.example.com/v1', { cronSpec: 'x' }), 'stable.example.com/v2'),
      (e: unknown) => e instanceof StatusError && e.code === 500 && e.message.startsWith('Internal error occurred: conversion webhook for stable.example.com/v1, Kind=CronTab failed: '));
  });
});

describe('Webhook conversion through a service reference', () => {
  it('dials what the resolver returns, with the service path and kube\'s timeout parameter', async () => {
    const wh = await startConversionWebhook({ convert });
    try {
      const base = wh.url.replace(/\/convert$/, '');
      const seen: string[] = [];
      const c = createCrdConverter(crd({
        strategy: 'Webhook',
        webhook: {
          clientConfig: { service: { namespace: 'ns', name: 'conv', port: 8443, path: '/convert' }, caBundle: wh.clientConfig.caBundle },
          conversionReviewVersions: ['v1beta1', 'v1'],
        },
      }), {
        resolveService: async (ns, name, port) => {
          seen.push(`${ns}/${name}:${port}`);
          return base;
        },
      });
      const out = await c.convert(cr('stable.example.com/v1', { cronSpec: 'q' }), 'stable.example.com/v2');
      assert.deepEqual(out['spec'], { schedule: 'q' });
      assert.deepEqual(seen, ['ns/conv:8443']);
      assert.equal(wh.server.requests.at(-1)!.path, '/convert?timeout=30s');
      assert.equal(wh.reviews.at(-1)!.apiVersion, 'apiextensions.k8s.io/v1beta1', 'the first listed review version is used');
    } finally {
      await wh.stop();
    }
  });
});
