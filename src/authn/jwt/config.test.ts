import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCa } from '../../controlplane/certs.ts';
import { ConfigDecodeError, decodeAuthenticationConfiguration, oidcFlagsToJwtAuthenticator, type AuthenticationConfiguration } from './config.ts';
import { aggregate, validateAuthenticationConfiguration } from './validate.ts';

const doc = (jwt: unknown[], extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1beta1', kind: 'AuthenticationConfiguration', jwt, ...extra });
const issuer = (url: string, more: Record<string, unknown> = {}): Record<string, unknown> => ({
  issuer: { url, audiences: ['keelson'], ...more }, claimMappings: { username: { claim: 'sub', prefix: '' } },
});

function errorsOf(text: string, disallowedIssuers: string[] = []): string[] {
  return validateAuthenticationConfiguration(decodeAuthenticationConfiguration(text), { disallowedIssuers }).errors.map(String);
}

void test('decode: YAML and JSON, v1/v1beta1/v1alpha1; anonymous block kept only when present', () => {
  const yaml = `apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: https://idp.example
    audiences: [a, b]
    audienceMatchPolicy: MatchAny
  claimValidationRules:
  - claim: hd
    requiredValue: example.com
  claimMappings:
    username:
      claim: email
      prefix: ""
    groups:
      claim: groups
      prefix: "oidc:"
anonymous:
  enabled: true
  conditions:
  - path: /livez
`;
  const c = decodeAuthenticationConfiguration(yaml);
  assert.equal(c.jwt.length, 1);
  assert.deepEqual(c.jwt[0]!.issuer, { url: 'https://idp.example', discoveryURL: undefined, certificateAuthority: undefined, audiences: ['a', 'b'], audienceMatchPolicy: 'MatchAny' });
  assert.deepEqual(c.jwt[0]!.claimMappings.username, { claim: 'email', prefix: '' });
  assert.deepEqual(c.anonymous, { enabled: true, conditions: [{ path: '/livez' }] });
  assert.equal(decodeAuthenticationConfiguration(doc([])).anonymous, undefined);
  assert.equal(decodeAuthenticationConfiguration(doc([]).replace('v1beta1', 'v1alpha1')).jwt.length, 0);
});

void test('decode: strict — unknown fields, wrong types, wrong kind/version, empty data', () => {
  const err = (text: string): string => {
    try {
      decodeAuthenticationConfiguration(text);
    } catch (e) {
      assert.ok(e instanceof ConfigDecodeError);
      return e.message;
    }
    return 'no error';
  };
  assert.equal(err(''), 'empty config data');
  assert.equal(err(doc([{ ...issuer('https://a'), bogus: 1 }])), 'strict decoding error: unknown field "jwt[0].bogus"');
  assert.equal(err(doc([issuer('https://a')], { extraTop: true })), 'strict decoding error: unknown field "extraTop"');
  assert.match(err(doc([{ issuer: { url: 5, audiences: ['a'] } }])), /cannot unmarshal number into Go struct field .*jwt\[0\]\.issuer\.url of type string/);
  assert.match(err(doc([], { anonymous: { enabled: 'yes' } })), /cannot unmarshal string .* of type bool/);
  assert.match(err(JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v2', kind: 'AuthenticationConfiguration' })), /no kind "AuthenticationConfiguration" is registered for version "apiserver.config.k8s.io\/v2"/);
  assert.match(err(JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1' })), /Object 'Kind' is missing/);
  assert.match(err('a: [1'), /error converting YAML to JSON/);
});

void test('validate: issuer url, discoveryURL, audiences, audienceMatchPolicy, CA, duplicates, disallowed issuers', async () => {
  assert.deepEqual(errorsOf(doc([issuer('https://a')])), []);
  assert.deepEqual(errorsOf(doc([issuer('')])), ['jwt[0].issuer.url: Required value']);
  assert.deepEqual(errorsOf(doc([issuer('http://a')])), ['jwt[0].issuer.url: Invalid value: "http://a": URL scheme must be https']);
  assert.deepEqual(errorsOf(doc([issuer('https://u:p@a/?q=1#f')])), [
    'jwt[0].issuer.url: Invalid value: "https://u:p@a/?q=1#f": URL must not contain a username or password',
    'jwt[0].issuer.url: Invalid value: "https://u:p@a/?q=1#f": URL must not contain a query',
    'jwt[0].issuer.url: Invalid value: "https://u:p@a/?q=1#f": URL must not contain a fragment',
  ]);
  assert.deepEqual(errorsOf(doc([issuer('https://a', { discoveryURL: 'https://a/' })])), ['jwt[0].issuer.discoveryURL: Invalid value: "https://a/": discoveryURL must be different from URL']);
  assert.deepEqual(errorsOf(doc([issuer('https://a', { discoveryURL: 'https://d' }), issuer('https://a', { discoveryURL: 'https://d' })])), [
    'jwt[1].issuer.url: Duplicate value: "https://a"', 'jwt[1].issuer.discoveryURL: Duplicate value: "https://d"',
  ]);
  assert.deepEqual(errorsOf(doc([issuer('https://a', { audiences: [] })])), ['jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required']);
  assert.deepEqual(errorsOf(doc([issuer('https://a', { audiences: ['x', 'x', ''] , audienceMatchPolicy: 'MatchAny' })])), [
    'jwt[0].issuer.audiences[1]: Duplicate value: "x"', 'jwt[0].issuer.audiences[2]: Required value',
  ]);
  assert.deepEqual(errorsOf(doc([issuer('https://a', { audiences: ['x', 'y'] })])), ['jwt[0].issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences']);
  assert.deepEqual(errorsOf(doc([issuer('https://a', { audienceMatchPolicy: 'MatchAll' })])), ['jwt[0].issuer.audienceMatchPolicy: Invalid value: "MatchAll": audienceMatchPolicy must be empty or MatchAny for single audience']);
  assert.deepEqual(errorsOf(doc([issuer('https://a', { certificateAuthority: 'junk' })])), ['jwt[0].issuer.certificateAuthority: Invalid value: "<omitted>": data does not contain any valid RSA or ECDSA certificates']);
  const ca = await createCa('idp-ca');
  assert.deepEqual(errorsOf(doc([issuer('https://a', { certificateAuthority: ca.certPem })])), []);
  assert.deepEqual(errorsOf(doc([issuer('https://kubernetes.default.svc')]), ['https://kubernetes.default.svc']), [
    'jwt[0].issuer.url: Invalid value: "https://kubernetes.default.svc": URL must not overlap with disallowed issuers: [https://kubernetes.default.svc]',
  ]);
  const many = doc(Array.from({ length: 65 }, (_, i) => issuer(`https://a${i}`)));
  assert.deepEqual(errorsOf(many), ['jwt: Too many: 65: must have at most 64 items']);
  assert.deepEqual(errorsOf(doc(Array.from({ length: 64 }, (_, i) => issuer(`https://a${i}`)))), []);
});

void test('validate: claim rules, claim mappings, extra keys, anonymous conditions', () => {
  const base = issuer('https://a');
  const withRules = (rules: unknown[]): string => doc([{ ...base, claimValidationRules: rules }]);
  assert.deepEqual(errorsOf(withRules([{ claim: 'a', requiredValue: 'b' }, { claim: 'a', requiredValue: 'c' }])), ['jwt[0].claimValidationRules[1].claim: Duplicate value: "a"']);
  assert.deepEqual(errorsOf(withRules([{}])), ['jwt[0].claimValidationRules[0]: Required value: claim or expression is required']);
  assert.deepEqual(errorsOf(withRules([{ claim: 'a', expression: 'true' }])), ["jwt[0].claimValidationRules[0]: Invalid value: \"a\": claim and expression can't both be set"]);
  assert.deepEqual(errorsOf(withRules([{ claim: 'a', message: 'm' }])), ['jwt[0].claimValidationRules[0].message: Invalid value: "m": may not be specified when claim is set']);
  const mapping = (cm: unknown): string => doc([{ issuer: { url: 'https://a', audiences: ['k'] }, claimMappings: cm }]);
  assert.deepEqual(errorsOf(mapping({ username: {} })), ['jwt[0].claimMappings.username: Required value: claim or expression is required']);
  assert.deepEqual(errorsOf(mapping({ username: { claim: 'sub' } })), ['jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing']);
  assert.deepEqual(errorsOf(mapping({ username: { claim: 'sub', expression: 'claims.sub' } })), ["jwt[0].claimMappings.username: Invalid value: \"\": claim and expression can't both be set"]);
  assert.deepEqual(errorsOf(mapping({ username: { claim: 'sub', prefix: '' }, groups: { claim: 'g' } })), ['jwt[0].claimMappings.groups.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing']);
  assert.deepEqual(errorsOf(mapping({ username: { claim: 'sub', prefix: '' }, uid: { claim: 'a', expression: 'b' } })), ["jwt[0].claimMappings.uid: Invalid value: \"\": claim and expression can't both be set"]);
  const extra = (key: string): string[] => errorsOf(mapping({ username: { claim: 'sub', prefix: '' }, extra: [{ key, valueExpression: '' }] }));
  assert.deepEqual(extra('example.org/Foo'), ['jwt[0].claimMappings.extra[0].key: Invalid value: "example.org/Foo": must be lowercase', 'jwt[0].claimMappings.extra[0].valueExpression: Required value']);
  assert.deepEqual(extra('foo'), ['jwt[0].claimMappings.extra[0].key: Invalid value: "foo": must be a domain-prefixed path (such as "acme.io/foo")', 'jwt[0].claimMappings.extra[0].valueExpression: Required value']);
  assert.deepEqual(extra('sub.k8s.io/x'), ['jwt[0].claimMappings.extra[0].key: Invalid value: "sub.k8s.io/x": k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use', 'jwt[0].claimMappings.extra[0].valueExpression: Required value']);
  assert.deepEqual(extra('kubernetes.io/x').length, 2);
  const dupe = errorsOf(mapping({ username: { claim: 'sub', prefix: '' }, extra: [{ key: 'a.io/x', valueExpression: '' }, { key: 'a.io/x', valueExpression: '' }] }));
  assert.deepEqual(dupe, ['jwt[0].claimMappings.extra[0].valueExpression: Required value', 'jwt[0].claimMappings.extra[1].key: Duplicate value: "a.io/x"']);
  assert.deepEqual(errorsOf(doc([{ ...base, userValidationRules: [{ expression: '' }] }])), ['jwt[0].userValidationRules[0].expression: Required value']);
  assert.deepEqual(errorsOf(doc([], { anonymous: { enabled: false, conditions: [{ path: '/livez' }] } })), ['anonymous.conditions: Invalid value: [{"path":"/livez"}]: enabled should be set to true when conditions are defined']);
  const c: AuthenticationConfiguration = { jwt: [], anonymous: { enabled: true, conditions: [] } };
  assert.deepEqual(validateAuthenticationConfiguration(c, { disallowedIssuers: [], anonymousConfigurable: false }).errors.map(String),
    ['anonymous: Forbidden: anonymous is not supported when AnonymousAuthConfigurableEndpoints feature gate is disabled']);
  assert.equal(aggregate(['a']), 'a');
  assert.equal(aggregate(['a', 'b']), '[a, b]');
});

void test('validate: CEL expressions compile, must be bool where kube says so, email needs email_verified', () => {
  const mapping = (cm: unknown, more: Record<string, unknown> = {}): string[] =>
    errorsOf(doc([{ issuer: { url: 'https://a', audiences: ['k'] }, claimMappings: cm, ...more }]));
  assert.deepEqual(mapping({ username: { expression: 'claims.sub' } }), []);
  assert.deepEqual(mapping({ username: { expression: 'claims.sub', prefix: 'x' } }), ['jwt[0].claimMappings.username.prefix: Invalid value: "x": may not be specified when expression is set']);
  assert.match(mapping({ username: { expression: 'claims.' } })[0]!, /^jwt\[0\]\.claimMappings\.username\.expression: Invalid value: "claims\.": compilation failed/);
  assert.deepEqual(mapping({ username: { expression: 'claims.email' } }), [
    'jwt[0].claimMappings.username.expression: Invalid value: "claims.email": claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
  ]);
  assert.deepEqual(mapping({ username: { expression: 'claims.email' } }, { claimValidationRules: [{ expression: 'claims.email_verified == true' }] }), []);
  assert.deepEqual(mapping({ username: { claim: 'sub', prefix: '' } }, { claimValidationRules: [{ expression: '"x"' }] }), [
    'jwt[0].claimValidationRules[0].expression: Invalid value: "\\"x\\"": must evaluate to bool',
  ]);
  assert.deepEqual(mapping({ username: { claim: 'sub', prefix: '' } }, { userValidationRules: [{ expression: "!user.username.startsWith('system:')", message: 'no' }] }), []);
});

void test('--oidc-* flags map to one JWT authenticator with the legacy prefix rules', () => {
  const base = { issuerUrl: 'https://idp', clientId: 'c' };
  assert.deepEqual(oidcFlagsToJwtAuthenticator({ ...base }).claimMappings.username, { claim: 'sub', prefix: 'https://idp#' });
  assert.deepEqual(oidcFlagsToJwtAuthenticator({ ...base, usernameClaim: 'email' }).claimMappings.username, { claim: 'email', prefix: '' });
  assert.deepEqual(oidcFlagsToJwtAuthenticator({ ...base, usernameClaim: 'email', usernamePrefix: 'e:' }).claimMappings.username, { claim: 'email', prefix: 'e:' });
  assert.deepEqual(oidcFlagsToJwtAuthenticator({ ...base, usernamePrefix: '-' }).claimMappings.username, { claim: 'sub', prefix: '' });
  const full = oidcFlagsToJwtAuthenticator({ ...base, groupsClaim: 'groups', groupsPrefix: 'g:', requiredClaims: { a: 'b' } });
  assert.deepEqual(full.claimMappings.groups, { claim: 'groups', prefix: 'g:' });
  assert.deepEqual(full.claimValidationRules, [{ claim: 'a', requiredValue: 'b' }]);
  assert.deepEqual(full.issuer.audiences, ['c']);
});
