import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluatePolicy, parsePolicy } from './policy.ts';
import type { Attributes } from '../request/authorizer.ts';

const HEAD = 'apiVersion: audit.k8s.io/v1\nkind: Policy\n';

function attrs(o: Partial<Attributes> & { groups?: string[]; username?: string } = {}): Attributes {
  const { groups, username, ...rest } = o;
  return {
    user: { username: username ?? 'alice', groups: groups ?? ['system:authenticated'] }, verb: 'get', isResourceRequest: true, path: '/api/v1/namespaces/ns/pods/p',
    apiGroup: '', apiVersion: 'v1', namespace: 'ns', resource: 'pods', subresource: '', name: 'p', ...rest,
  };
}

const level = (policy: string, a: Attributes): string => evaluatePolicy(parsePolicy(HEAD + policy), a).level;

void test('first matching rule wins; no match is None', () => {
  const p = 'rules:\n- level: Request\n  verbs: [get]\n- level: RequestResponse\n';
  assert.equal(level(p, attrs()), 'Request');
  assert.equal(level(p, attrs({ verb: 'list' })), 'RequestResponse');
  assert.equal(level('rules:\n- level: Metadata\n  verbs: [create]\n', attrs()), 'None');
});

void test('users and userGroups', () => {
  const p = 'rules:\n- level: Metadata\n  users: [bob]\n- level: Request\n  userGroups: [system:masters]\n';
  assert.equal(level(p, attrs({ username: 'bob' })), 'Metadata');
  assert.equal(level(p, attrs({ groups: ['x', 'system:masters'] })), 'Request');
  assert.equal(level(p, attrs()), 'None');
});

void test('resources: groups, `*`, sub-resources (`pods/log`, `*/status`, `pods/*`), resourceNames, namespaces', () => {
  const rule = (r: string): string => `rules:\n- level: Metadata\n  resources:\n  - ${r}\n`;
  assert.equal(level(rule('group: ""\n    resources: [pods]'), attrs()), 'Metadata');
  assert.equal(level(rule('group: apps\n    resources: [pods]'), attrs()), 'None');
  assert.equal(level(rule('group: "*"'), attrs({ apiGroup: 'apps' })), 'Metadata');
  assert.equal(level(rule('group: ""\n    resources: ["*"]'), attrs({ resource: 'secrets' })), 'Metadata');
  assert.equal(level(rule('group: ""\n    resources: [pods]'), attrs({ subresource: 'log' })), 'None');
  assert.equal(level(rule('group: ""\n    resources: [pods/log]'), attrs({ subresource: 'log' })), 'Metadata');
  assert.equal(level(rule('group: ""\n    resources: ["*/status"]'), attrs({ resource: 'nodes', subresource: 'status' })), 'Metadata');
  assert.equal(level(rule('group: ""\n    resources: ["*/status"]'), attrs({ resource: 'nodes' })), 'None');
  assert.equal(level(rule('group: ""\n    resources: ["pods/*"]'), attrs({ subresource: 'exec' })), 'Metadata');
  assert.equal(level(rule('group: ""\n    resources: ["pods/*"]'), attrs()), 'Metadata');
  assert.equal(level(rule('group: ""\n    resources: [pods]\n    resourceNames: [p]'), attrs()), 'Metadata');
  assert.equal(level(rule('group: ""\n    resources: [pods]\n    resourceNames: [q]'), attrs()), 'None');
  assert.equal(level('rules:\n- level: Metadata\n  namespaces: [ns]\n', attrs()), 'Metadata');
  assert.equal(level('rules:\n- level: Metadata\n  namespaces: [other]\n', attrs()), 'None');
  // Cluster-scoped requests have the namespace "".
  assert.equal(level('rules:\n- level: Metadata\n  namespaces: [""]\n', attrs({ namespace: '', resource: 'nodes' })), 'Metadata');
  // A resource rule never matches a non-resource request.
  assert.equal(level(rule('group: "*"'), attrs({ isResourceRequest: false, path: '/healthz' })), 'None');
});

void test('nonResourceURLs: exact, `*`, trailing `*` prefix', () => {
  const nr = (path: string) => attrs({ isResourceRequest: false, path, resource: '', namespace: '', name: '' });
  const p = 'rules:\n- level: None\n  nonResourceURLs: ["/healthz*", /version]\n- level: Metadata\n  nonResourceURLs: ["*"]\n';
  assert.equal(level(p, nr('/healthz/etcd')), 'None');
  assert.equal(level(p, nr('/version')), 'None');
  assert.equal(level(p, nr('/version/x')), 'Metadata');
  assert.equal(level(p, nr('/metrics')), 'Metadata');
  assert.equal(level(p, attrs()), 'None');
});

void test('omitStages join the policy-level ones; omitManagedFields: rule value, else the policy default', () => {
  const p = parsePolicy(`${HEAD}omitStages: [RequestReceived]\nomitManagedFields: true\nrules:\n- level: Metadata\n  verbs: [get]\n  omitStages: [ResponseStarted]\n  omitManagedFields: false\n- level: Request\n`);
  assert.deepEqual([...evaluatePolicy(p, attrs()).omitStages].sort(), ['RequestReceived', 'ResponseStarted']);
  assert.equal(evaluatePolicy(p, attrs()).omitManagedFields, false);
  assert.equal(evaluatePolicy(p, attrs({ verb: 'list' })).omitManagedFields, true);
  assert.deepEqual(evaluatePolicy(p, attrs({ verb: 'list' })).omitStages, ['RequestReceived']);
});

void test('validation and decoding errors carry kube\'s messages', () => {
  const err = (text: string): string => {
    try {
      parsePolicy(text);
    } catch (e) {
      return (e as Error).message;
    }
    return 'no error';
  };
  assert.equal(err(`${HEAD}rules:\n- level: Loud\n`), 'rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse"');
  assert.equal(err(`${HEAD}rules:\n- verbs: [get]\n`), 'rules[0].level: Required value');
  assert.equal(err(`${HEAD}rules: []\n`), 'loaded illegal policy with 0 rules');
  assert.equal(err(`${HEAD}omitStages: [Later]\nrules:\n- level: None\n`), 'omitStages[0]: Invalid value: "Later": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic');
  assert.equal(err(`${HEAD}rules:\n- level: None\n  nonResourceURLs: [healthz]\n`), "rules[0].nonResourceURLs[0]: Invalid value: \"healthz\": non-resource URL rules must begin with a '/' character");
  assert.equal(err(`${HEAD}rules:\n- level: None\n  nonResourceURLs: ["/a*b"]\n`), "rules[0].nonResourceURLs[0]: Invalid value: \"/a*b\": non-resource URL wildcards '*' must be the final character of the rule");
  assert.equal(err(`${HEAD}rules:\n- level: None\n  nonResourceURLs: [/x]\n  namespaces: [a]\n`), 'rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs');
  assert.equal(err(`${HEAD}rules:\n- level: None\n  resources:\n  - group: ""\n    resourceNames: [x]\n`), 'rules[0].resources.resourceNames: Invalid value: ["x"]: using resourceNames requires at least one resource');
  assert.match(err(`${HEAD}rules:\n- level: None\n  resources:\n  - group: Bad_Group\n`), /^rules\[0\]\.resources\.group: Invalid value: "Bad_Group": a lowercase RFC 1123 subdomain/);
  assert.equal(err(`${HEAD}rules:\n- level: Loud\n- verbs: [get]\n`), '[rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse", rules[1].level: Required value]');
  assert.equal(err('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules:\n- level: None\n'), 'failed decoding: no kind "Policy" is registered for version "audit.k8s.io/v1beta1" in scheme "k8s.io/apiserver/pkg/audit/scheme.go:30"');
  assert.equal(err('rules:\n- level: None\n'), `failed decoding: Object 'Kind' is missing in '{"rules":[{"level":"None"}]}'`);
  assert.equal(err(`${HEAD}rules:\n- level: None\n  verbs: get\n`), 'failed decoding: json: cannot unmarshal string into Go struct field Policy.rules.verbs of type []string');
  assert.match(err(`${HEAD}rules:\n  - level: None\n   verbs: [get\n`), /^failed decoding: error converting YAML to JSON: yaml: line \d+: /);
});

void test('unknown fields warn and fall back to lenient decoding, as kube', () => {
  const warnings: string[] = [];
  const p = parsePolicy(`${HEAD}rules:\n- level: Metadata\n  verb: [get]\n`, (w) => warnings.push(w));
  assert.equal(p.rules.length, 1);
  assert.deepEqual(warnings, ['Audit policy contains errors, falling back to lenient decoding: strict decoding error: unknown field "rules[0].verb"']);
});
