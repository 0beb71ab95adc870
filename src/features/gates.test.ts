import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeatureGates, FeatureGateError, KUBE_1_33_GATES, klogLine } from './index.ts';

test('v1.33 defaults of the gates the spec names', () => {
  const g = FeatureGates.defaults();
  assert.equal(g.enabled('AllowUnsafeMalformedObjectDeletion'), false);
  assert.equal(g.enabled('CBORServingAndStorage'), false);
  assert.equal(g.enabled('APIResponseCompression'), true);
  assert.equal(g.enabled('AuthorizeWithSelectors'), true);
  assert.equal(g.enabled('AuthorizeNodeWithSelectors'), true);
  assert.equal(g.enabled('WatchList'), false);
  assert.equal(g.enabled('ConsistentListFromCache'), true);
  assert.equal(g.enabled('StructuredAuthorizationConfiguration'), true);
  assert.equal(g.spec('StructuredAuthorizationConfiguration')?.lockToDefault, true);
  assert.equal(g.spec('APIResponseCompression')?.stage, 'BETA');
  assert.equal(g.spec('CBORServingAndStorage')?.stage, 'ALPHA');
});

test('every alpha gate defaults off and every locked gate is GA or deprecated', () => {
  for (const [name, s] of Object.entries(KUBE_1_33_GATES)) {
    if (s.stage === 'ALPHA') assert.equal(s.default, false, name);
    if (s.lockToDefault) assert.ok(s.stage === 'GA' || s.stage === 'DEPRECATED', name);
  }
});

test('overrides apply; unknown names are refused with kube wording', () => {
  const g = FeatureGates.create({ APIResponseCompression: false, CBORServingAndStorage: true });
  assert.equal(g.enabled('APIResponseCompression'), false);
  assert.equal(g.enabled('CBORServingAndStorage'), true);
  assert.throws(() => FeatureGates.create({ NoSuchGate: true }), (e: unknown) =>
    e instanceof FeatureGateError && e.message === 'unrecognized feature gate: NoSuchGate');
  assert.throws(() => g.enabled('NoSuchGate'), /not registered/);
});

test('a locked gate refuses its other value and accepts its default with a GA warning', () => {
  assert.throws(() => FeatureGates.create({ StructuredAuthorizationConfiguration: false }), (e: unknown) =>
    e instanceof FeatureGateError && e.message === 'cannot set feature gate StructuredAuthorizationConfiguration to false, feature is locked to true');
  const warnings: string[] = [];
  FeatureGates.create({ StructuredAuthorizationConfiguration: true }, { warn: (w) => warnings.push(w) });
  assert.deepEqual(warnings, ['Setting GA feature gate StructuredAuthorizationConfiguration=true. It will be removed in a future release.']);
});

test('several errors are aggregated as [a, b]; an unknown gate stops with those collected so far', () => {
  assert.throws(() => FeatureGates.create({ BtreeWatchCache: false, RetryGenerateName: false }), {
    message: '[cannot set feature gate BtreeWatchCache to false, feature is locked to true, cannot set feature gate RetryGenerateName to false, feature is locked to true]',
  });
  assert.throws(() => FeatureGates.create({ BtreeWatchCache: false, Nope: true }), {
    message: '[cannot set feature gate BtreeWatchCache to false, feature is locked to true, unrecognized feature gate: Nope]',
  });
});

test('deprecated gates warn; alpha and beta gates do not', () => {
  const warnings: string[] = [];
  const g = FeatureGates.create({ KMSv1: true, WatchList: true, CBORServingAndStorage: true }, { warn: (w) => warnings.push(w) });
  assert.equal(g.enabled('KMSv1'), true);
  assert.deepEqual(warnings, ['Setting deprecated feature gate KMSv1=true. It will be removed in a future release.']);
});

test('AllAlpha / AllBeta flip their stage except gates named explicitly', () => {
  const g = FeatureGates.create({ AllAlpha: true, CBORServingAndStorage: false, AllBeta: false });
  assert.equal(g.enabled('AllowUnsafeMalformedObjectDeletion'), true);
  assert.equal(g.enabled('CBORServingAndStorage'), false);
  assert.equal(g.enabled('APIResponseCompression'), false);
  assert.equal(g.enabled('BtreeWatchCache'), true);
});

test('toString lists Name=bool sorted', () => {
  const s = FeatureGates.create({}, { known: { B: { default: true, stage: 'BETA' }, A: { default: false, stage: 'ALPHA' } } }).toString();
  assert.equal(s, 'A=false,B=true');
});

test('klogLine formats the klog header', () => {
  const line = klogLine('W', 'feature_gate.go:387', 'hello', new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)), 42);
  assert.equal(line, 'W0102 03:04:05.006000      42 feature_gate.go:387] hello');
});

test('knownFeatures lists alpha and beta gates for --help, as component-base', () => {
  const lines = FeatureGates.knownFeatures();
  assert.ok(lines.includes('APIResponseCompression=true|false (BETA - default=true)'));
  assert.ok(lines.includes('AllAlpha=true|false (ALPHA - default=false)'));
  assert.ok(lines.includes('CBORServingAndStorage=true|false (ALPHA - default=false)'));
  assert.ok(!lines.some((l) => l.startsWith('BtreeWatchCache=') || l.startsWith('KMSv1=')));
  assert.deepEqual(lines, [...lines].sort());
});
