// DenyServiceExternalIPs (kube's plugin/pkg/admission/network/denyserviceexternalips).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { denyServiceExternalIPsPlugin } from './deny-service-external-ips.ts';
import { refusal, request } from './testing/fake.ts';

const svc = (externalIPs?: string[]) => ({ metadata: { name: 's' }, spec: { ports: [{ port: 80 }], ...(externalIPs ? { externalIPs } : {}) } });

void test('new external IPs are refused; keeping or dropping old ones is fine', async () => {
  const plugin = denyServiceExternalIPsPlugin();
  await plugin.validate!(request({ resource: 'services', namespace: 'ns', object: svc() }));
  const e = await refusal(() => plugin.validate!(request({ resource: 'services', namespace: 'ns', object: svc(['1.2.3.4']) })));
  assert.equal(e.message, 'services "s" is forbidden: Use of external IPs is denied by admission control');
  await plugin.validate!(request({ operation: 'UPDATE', resource: 'services', namespace: 'ns', name: 's', object: svc(['1.2.3.4']), oldObject: svc(['1.2.3.4', '5.6.7.8']) }));
  await refusal(() => plugin.validate!(request({ operation: 'UPDATE', resource: 'services', namespace: 'ns', name: 's', object: svc(['9.9.9.9']), oldObject: svc(['1.2.3.4']) })));
});
