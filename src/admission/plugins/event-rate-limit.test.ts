// EventRateLimit (kube's plugin/pkg/admission/eventratelimit).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventRateLimitPlugin, parseEventRateLimitConfig } from './event-rate-limit.ts';
import { pluginContext, refusal, request } from './testing/fake.ts';

const config = (limits: unknown[]) => ({ apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuration', limits });
const event = (ns: string, user = 'u', dryRun = false) => request({ resource: 'events', namespace: ns, dryRun, user: { username: user, groups: [] },
  object: { metadata: { name: 'e' }, involvedObject: { kind: 'Pod', name: 'p' }, source: { component: 'c' } } as never });

void test('buckets per namespace start full (burst) and refill at qps; dry runs do not count', async () => {
  let now = 0;
  const plugin = eventRateLimitPlugin(pluginContext({ config: config([{ type: 'Namespace', qps: 1, burst: 2 }]), now: () => new Date(now) }));
  await plugin.validate!(event('a'));
  await plugin.validate!(event('a'));
  for (let i = 0; i < 5; i++) await plugin.validate!(event('a', 'u', true));
  const e = await refusal(() => plugin.validate!(event('a')));
  assert.equal(e.code, 429);
  assert.equal(e.reason, 'TooManyRequests');
  assert.equal(e.message, 'Too many requests: limit reached on type Namespace for key a');
  await plugin.validate!(event('b'));
  now += 1000;
  await plugin.validate!(event('a'));
  await plugin.validate!(request({ resource: 'configmaps', namespace: 'a', object: { metadata: { name: 'x' } } }));
});

void test('several limits refusing at once are listed together', async () => {
  const plugin = eventRateLimitPlugin(pluginContext({ config: config([{ type: 'Server', qps: 1, burst: 1 }, { type: 'User', qps: 1, burst: 1 }]), now: () => new Date(0) }));
  await plugin.validate!(event('a', 'ann'));
  const e = await refusal(() => plugin.validate!(event('a', 'ann')));
  assert.equal(e.message, 'Too many requests: [limit reached on type Server for key , limit reached on type User for key ann]');
});

void test('the configuration is validated with kube\'s field errors', () => {
  assert.throws(() => parseEventRateLimitConfig(config([])), { message: 'couldn\'t init admission plugin "EventRateLimit": limits: Invalid value: []eventratelimit.Limit(nil): must not be empty' });
  assert.throws(() => parseEventRateLimitConfig(config([{ type: 'Pod', qps: 0, burst: 1, cacheSize: -1 }])), {
    message: 'couldn\'t init admission plugin "EventRateLimit": [limits[0].type: Unsupported value: "Pod": supported values: "Namespace", "Server", "SourceAndObject", "User", limits[0].qps: Invalid value: 0: must be positive, limits[0].cacheSize: Invalid value: -1: must not be negative]',
  });
  assert.deepEqual(parseEventRateLimitConfig(config([{ type: 'SourceAndObject', qps: 5, burst: 10 }])), [{ type: 'SourceAndObject', qps: 5, burst: 10, cacheSize: 0 }]);
});
