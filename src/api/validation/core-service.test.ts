// ValidateService / ValidateServiceUpdate (pkg/apis/core/validation/validation.go: validateServicePort,
// ValidateServiceClusterIPsRelatedFields, validateServiceExternalTrafficPolicy, validateUpgradeDowngradeClusterIPs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateService, validateServiceUpdate } from './core-service.ts';
import type { J } from './util.ts';

function svc(mut: (spec: J) => void = () => {}, name = 'web'): J {
  const spec: J = {
    type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster',
    ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }], selector: { app: 'web' },
  };
  mut(spec);
  return { metadata: { name, namespace: 'default' }, spec };
}

const cases: [string, (s: J) => void, string[]][] = [
  ['valid', () => {}, []],
  ['ports required', (s) => { s['ports'] = []; }, ['spec.ports: Required value']],
  ['headless without ports is fine', (s) => { s['ports'] = []; s['clusterIP'] = 'None'; s['clusterIPs'] = ['None']; }, []],
  ['names required for several ports', (s) => { s['ports'] = [{ port: 80, protocol: 'TCP' }, { name: 'b', port: 0, protocol: 'TCP' }]; }, [
    'spec.ports[0].name: Required value',
    'spec.ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive',
    'spec.ports[1].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
  ]],
  ['duplicate port names and ports', (s) => { s['ports'] = [{ name: 'a', port: 80, protocol: 'TCP' }, { name: 'a', port: 80, protocol: 'TCP' }]; }, [
    'spec.ports[1].name: Duplicate value: "a"',
    'spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
  ]],
  ['protocol', (s) => { s['ports'] = [{ port: 80, protocol: 'HTTP' }]; }, ['spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"']],
  ['targetPort name', (s) => { s['ports'] = [{ port: 80, protocol: 'TCP', targetPort: 'Web_Port' }]; }, [
    'spec.ports[0].targetPort: Invalid value: "Web_Port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
  ]],
  ['type', (s) => { s['type'] = 'Internal'; }, ['spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']],
  ['nodePort on ClusterIP', (s) => { s['ports'] = [{ port: 80, protocol: 'TCP', nodePort: 30000 }]; }, ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]],
  ['sessionAffinity', (s) => { s['sessionAffinity'] = 'Sticky'; }, ['spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"']],
  ['clusterIP format', (s) => { s['clusterIP'] = '10.0.0.300'; s['clusterIPs'] = ['10.0.0.300']; }, [
    'spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
  ]],
  ['clusterIPs must follow clusterIP', (s) => { s['clusterIP'] = '10.0.0.1'; s['clusterIPs'] = ['10.0.0.2']; }, [
    'spec.clusterIPs: Invalid value: []string{"10.0.0.2"}: first value must match `clusterIP`',
  ]],
  ['headless LoadBalancer', (s) => { s['type'] = 'LoadBalancer'; s['clusterIP'] = 'None'; s['clusterIPs'] = ['None']; s['externalTrafficPolicy'] = 'Cluster'; }, [
    `spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for LoadBalancer services`,
  ]],
  ['externalName', (s) => { s['type'] = 'ExternalName'; s['ports'] = []; s['externalName'] = 'Foo_bar.com'; delete s['internalTrafficPolicy']; }, [
    `spec.externalName: Invalid value: "Foo_bar.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  ]],
  ['externalName required', (s) => { s['type'] = 'ExternalName'; s['ports'] = []; }, ['spec.externalName: Required value']],
  ['externalTrafficPolicy on ClusterIP', (s) => { s['externalTrafficPolicy'] = 'Local'; }, [
    'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
  ]],
  ['external IPs', (s) => { s['externalIPs'] = ['127.0.0.1', 'x']; }, [
    'spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    'spec.externalIPs[1]: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
  ]],
];

for (const [name, mut, want] of cases) test(`service: ${name}`, () => assert.deepEqual(validateService(svc(mut)).map(String), want));

test('service: the name rule is the resource NameRule (dns1035-label), not repeated here', () => {
  assert.deepEqual(validateService(svc(() => {}, '1web')).map(String), []);
});

test('service update: cluster IPs may not change', () => {
  const old = svc((s) => { s['clusterIP'] = '10.0.0.1'; s['clusterIPs'] = ['10.0.0.1']; });
  const next = svc((s) => { s['clusterIP'] = '10.0.0.2'; s['clusterIPs'] = ['10.0.0.2']; });
  assert.deepEqual(validateServiceUpdate(next, old).map(String), ['spec.clusterIPs[0]: Invalid value: []string{"10.0.0.2"}: may not change once set']);
  assert.deepEqual(validateServiceUpdate(old, old).map(String), []);
});
