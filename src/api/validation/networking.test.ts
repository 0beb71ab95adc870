// validateIngressSpec / validateIngressBackend / validateHTTPIngressPath and ValidateNetworkPolicySpec /
// ValidateIPBlock (pkg/apis/networking/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateIngress, validateIngressClass, validateNetworkPolicy } from './networking.ts';
import type { J } from './util.ts';

const backend = { service: { name: 'web', port: { number: 80 } } };
const ing = (spec: J): J => ({ metadata: { name: 'i', namespace: 'd' }, spec });

const ingressCases: [string, J, string[]][] = [
  ['valid', { rules: [{ host: '*.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }] }, []],
  ['nothing', {}, ['spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified']],
  ['host', { rules: [{ host: '1.2.3.4' }, { host: 'a.*.com' }] }, [
    'spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
    `spec.rules[1].host: Invalid value: "a.*.com": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  ]],
  ['paths', { rules: [{ http: { paths: [
    { path: 'api', pathType: 'Prefix', backend }, { path: '/a//b', pathType: 'Exact', backend }, { path: '/', backend }, { path: '/', pathType: 'Glob', backend },
  ] } }] }, [
    'spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path',
    `spec.rules[0].http.paths[1].path: Invalid value: "/a//b": must not contain '//'`,
    'spec.rules[0].http.paths[2].pathType: Required value: pathType must be specified',
    'spec.rules[0].http.paths[3].pathType: Unsupported value: "Glob": supported values: "Exact", "ImplementationSpecific", "Prefix"',
  ]],
  ['empty paths', { rules: [{ http: { paths: [] } }] }, ['spec.rules[0].http.paths: Required value']],
  ['backends', { defaultBackend: { service: { name: 'web', port: { name: 'http', number: 80 } } }, rules: [{ http: { paths: [
    { path: '/', pathType: 'Prefix', backend: {} },
    { path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: {} } } },
    { path: '/', pathType: 'Prefix', backend: { service: { name: 'web' }, resource: { kind: 'X', name: 'y' } } },
  ] } }] }, [
    'spec.defaultBackend: Invalid value: "": cannot set both port name & port number',
    'spec.rules[0].http.paths[0].backend: Invalid value: "": resource or service backend is required',
    'spec.rules[0].http.paths[1].backend: Required value: port name or number is required',
    'spec.rules[0].http.paths[2].backend: Invalid value: "": cannot set both resource and service backends',
  ]],
];
for (const [name, spec, want] of ingressCases) test(`ingress: ${name}`, () => assert.deepEqual(validateIngress(ing(spec)).map(String), want));

test('ingress class: controller required', () => {
  assert.deepEqual(validateIngressClass({ spec: {} }).map(String), ['spec.controller: Required value']);
});

const np = (spec: J): J => ({ metadata: { name: 'n', namespace: 'd' }, spec });
const npCases: [string, J, string[]][] = [
  ['valid', { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ port: 80, endPort: 90 }] }], policyTypes: ['Ingress'] }, []],
  ['peers', { podSelector: {}, ingress: [{ from: [{}, { ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }] }] }, [
    'spec.ingress[0].from[0]: Required value: must specify a peer',
    'spec.ingress[0].from[1]: Forbidden: may not specify both ipBlock and another peer',
  ]],
  ['cidrs', { podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/33' } }, { ipBlock: { cidr: '10.0.0.0/16', except: ['192.168.0.0/24', '10.0.0.0/8'] } }] }] }, [
    'spec.egress[0].to[0].ipBlock.cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    'spec.egress[0].to[1].ipBlock.except[0]: Invalid value: "192.168.0.0/24": must be a strict subset of `cidr`',
    'spec.egress[0].to[1].ipBlock.except[1]: Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`',
  ]],
  ['ports', { podSelector: {}, ingress: [{ ports: [{ protocol: 'ICMP' }, { port: 'http', endPort: 90 }, { port: 100, endPort: 90 }] }] }, [
    'spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
    'spec.ingress[0].ports[1].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
    'spec.ingress[0].ports[2].endPort: Invalid value: 100: must be greater than or equal to `port`',
  ]],
  ['policy types', { podSelector: {}, policyTypes: ['Both'] }, ['spec.policyTypes[0]: Unsupported value: "Both": supported values: "Ingress", "Egress"']],
];
for (const [name, spec, want] of npCases) test(`network policy: ${name}`, () => assert.deepEqual(validateNetworkPolicy(np(spec)).map(String), want));
