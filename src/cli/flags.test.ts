import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCommandLine, usage, FLAG_DEFS } from './flags.ts';
import { FlagError } from './pflag.ts';
import { main } from './main.ts';

void test('defaults: 6443 on 127.0.0.1, sqlite in ./keelson-data, Node,RBAC with anonymous on', () => {
  const c = parseCommandLine([]);
  assert.equal(c.options.port, 6443);
  assert.equal(c.options.bindAddress, '127.0.0.1');
  assert.equal(c.options.dataDir, './keelson-data');
  assert.equal(c.options.storage, 'sqlite');
  assert.deepEqual(c.options.authorizationMode, ['Node', 'RBAC']);
  assert.equal(c.options.anonymousAuth, true);
  assert.equal(c.options.anonymousAuthFlagSet, false);
  assert.equal(c.options.writeKubeconfig, undefined);
  assert.deepEqual(c.notices, []);
  // kube-apiserver's warning when anonymous meets AlwaysAllow
  assert.match(parseCommandLine(['--authorization-mode=AlwaysAllow']).notices[0]!, /AnonymousAuth is not allowed with the AlwaysAllow authorizer/);
});

void test('authorization flags combine as kube-apiserver allows', () => {
  assert.throws(() => parseCommandLine(['--authorization-config=/a.yaml', '--authorization-mode=RBAC']), /--authorization-config can not be specified when --authorization-mode or --authorization-webhook-\* flags are defined/);
  assert.deepEqual(parseCommandLine(['--authorization-config=/a.yaml']).options.authorizationMode, []);
  assert.throws(() => parseCommandLine(['--authorization-mode=ABAC']), /authorization-mode ABAC's authorization policy file not passed/);
  assert.throws(() => parseCommandLine(['--authorization-mode=Webhook']), /authorization-mode Webhook's authorization config file not passed/);
  assert.throws(() => parseCommandLine(['--authorization-policy-file=/p.jsonl']), /cannot specify --authorization-policy-file without mode ABAC/);
  assert.throws(() => parseCommandLine(['--authorization-webhook-config-file=/w.yaml']), /cannot specify --authorization-webhook-config-file without mode Webhook/);
  assert.equal(parseCommandLine(['--anonymous-auth=false']).options.anonymousAuthFlagSet, true);
  assert.equal(parseCommandLine(['--oidc-client-id=x']).options.oidc?.issuerUrl, '');
});

void test('the README invocation maps onto options', () => {
  const c = parseCommandLine(['--secure-port=7443', '--data-dir=/tmp/x', '--write-kubeconfig=/tmp/k.yaml']);
  assert.equal(c.options.port, 7443);
  assert.equal(c.options.dataDir, '/tmp/x');
  assert.equal(c.options.writeKubeconfig, '/tmp/k.yaml');
});

void test('--etcd-servers implies etcd storage; --storage overrides', () => {
  assert.equal(parseCommandLine(['--etcd-servers=http://127.0.0.1:2379']).options.storage, 'etcd');
  assert.deepEqual(parseCommandLine(['--etcd-servers', 'http://a:1,http://b:2']).options.etcdServers, ['http://a:1', 'http://b:2']);
  assert.equal(parseCommandLine(['--storage=memory']).options.storage, 'memory');
  assert.throws(() => parseCommandLine(['--storage=mongo']), /invalid argument "mongo" for "--storage" flag/);
});

void test('durations, maps and token file', () => {
  const c = parseCommandLine(['--shutdown-delay-duration=5s', '--livez-grace-period', '1m0s', '--runtime-config=api/all=true',
    '--feature-gates=Foo=true', '--token-auth-file=/t.csv', '--anonymous-auth=false', '--authorization-mode=AlwaysDeny']);
  assert.equal(c.options.shutdownDelayMs, 5000);
  assert.equal(c.options.livezGracePeriodMs, 60_000);
  assert.deepEqual(c.options.runtimeConfig, { 'api/all': 'true' });
  assert.deepEqual(c.options.featureGates, { Foo: true });
  assert.equal(c.options.tokenAuthFile, '/t.csv');
  assert.equal(c.options.anonymousAuth, false);
  assert.deepEqual(c.options.authorizationMode, ['AlwaysDeny']);
  assert.deepEqual(c.notices, []);
  const d = parseCommandLine(['--watch-cache=false', '--enable-garbage-collector=false', '--advertise-address=10.0.0.5']);
  assert.equal(d.options.watchCache, false);
  assert.equal(d.options.garbageCollector, false);
  assert.equal(d.options.advertiseAddress, '10.0.0.5');
  const t = parseCommandLine(['--tls-min-version=VersionTLS13', '--http2-max-streams-per-connection=50', '--cert-dir=/c']);
  assert.equal(t.options.tlsMinVersion, 'TLSv1.3');
  assert.equal(t.options.http2MaxStreamsPerConnection, 50);
  assert.equal(t.options.certDir, '/c');
  assert.throws(() => parseCommandLine(['--tls-min-version=TLS9']), /--tls-min-version: unknown tls version "TLS9"/);
  assert.throws(() => parseCommandLine(['--tls-cipher-suites=TLS_AES_128_GCM_SHA256']), /choosing TLS cipher suites is not implemented yet/);
});

void test('authorization modes: unknown refused, later ones refused by name', () => {
  assert.throws(() => parseCommandLine(['--authorization-mode=Foo']), /authorization-mode "Foo" is not a valid mode/);
  assert.deepEqual(parseCommandLine(['--authorization-mode=RBAC']).options.authorizationMode, ['RBAC']);
  assert.throws(() => parseCommandLine(['--authorization-mode=AlwaysAllow,AlwaysAllow']), /more than once/);
  assert.deepEqual(parseCommandLine(['--authorization-mode=AlwaysDeny,AlwaysAllow']).options.authorizationMode, ['AlwaysDeny', 'AlwaysAllow']);
});

void test('flags for features not built yet fail by name when given a value', () => {
  const enc = parseCommandLine(['--encryption-provider-config=/e.yaml', '--encryption-provider-config-automatic-reload']).options;
  assert.equal(enc.encryptionProviderConfig, '/e.yaml');
  assert.equal(enc.encryptionProviderConfigAutomaticReload, true);
  assert.equal(parseCommandLine(['--enable-bootstrap-token-auth']).options.enableBootstrapTokenAuth, true);
  // Accepted and stored even though nothing reads them yet
  const c = parseCommandLine(['--service-cluster-ip-range=10.0.0.0/24', '--enable-admission-plugins=NamespaceLifecycle,LimitRanger', '--v=2']);
  assert.deepEqual(c.options.rawFlags?.get('enable-admission-plugins'), ['NamespaceLifecycle', 'LimitRanger']);
});

void test('--allow-privileged: kube-apiserver\'s default false, true when given', () => {
  assert.equal(parseCommandLine([]).options.allowPrivileged, false);
  assert.equal(parseCommandLine(['--allow-privileged']).options.allowPrivileged, true);
  assert.equal(parseCommandLine(['--allow-privileged=false']).options.allowPrivileged, false);
});

void test('unknown flags and positional arguments are errors', () => {
  assert.throws(() => parseCommandLine(['--bogus']), (e: unknown) => e instanceof FlagError && e.message === 'unknown flag: --bogus');
  assert.throws(() => parseCommandLine(['serve']), /"keelson" does not take any arguments, got \["serve"\]/);
});

void test('usage lists every visible flag with its type and default', () => {
  const u = usage();
  for (const d of FLAG_DEFS.filter((f) => !f.deprecated)) assert.ok(u.includes(`--${d.name}`), d.name);
  // Deprecated flags are accepted but not listed, as pflag does.
  assert.ok(!u.includes('--audit-webhook-batch-initial-backoff'));
  assert.match(u, /--secure-port int\s+The port on which to serve HTTPS with authentication and authorization\. \(default 6443\)/);
  assert.match(u, /--shutdown-delay-duration duration/);
});

void test('main: unknown flag → "Error: unknown flag: --x" and exit code 1; --help → usage, 0', async () => {
  let out = '';
  let err = '';
  const io = { stdout: (s: string) => { out += s; }, stderr: (s: string) => { err += s; } };
  assert.equal(await main(['--x'], io), 1);
  assert.equal(err, 'Error: unknown flag: --x\n');
  assert.equal(await main(['-h'], io), 0);
  assert.match(out, /^Keelson/);
  out = '';
  assert.equal(await main(['--version'], io), 0);
  assert.equal(out, 'Kubernetes v1.33.0\n');
});

void test('audit flags: kube defaults, every value mapped, the deprecated backoff spelling still works', () => {
  const none = parseCommandLine([]);
  assert.deepEqual(none.options.audit?.log?.batch, { mode: 'blocking', bufferSize: 10000, maxBatchSize: 1, maxBatchWaitMs: 0, throttleEnable: false, throttleQPS: 0, throttleBurst: 0 });
  assert.deepEqual(none.options.audit?.webhook?.batch, { mode: 'batch', bufferSize: 10000, maxBatchSize: 400, maxBatchWaitMs: 30_000, throttleEnable: true, throttleQPS: 10, throttleBurst: 15 });
  assert.deepEqual(none.options.audit?.log?.truncate, { enabled: false, maxBatchSize: 10485760, maxEventSize: 102400 });
  assert.equal(none.options.audit?.webhook?.initialBackoffMs, 10_000);
  assert.equal(none.options.audit?.policyFile, undefined);
  const c = parseCommandLine(['--audit-policy-file=/p.yaml', '--audit-log-path=-', '--audit-log-format=legacy', '--audit-log-maxage=7', '--audit-log-maxbackup=3',
    '--audit-log-maxsize=50', '--audit-log-compress', '--audit-log-mode=blocking-strict', '--audit-log-truncate-enabled', '--audit-log-truncate-max-event-size=2048',
    '--audit-webhook-config-file=/w.kubeconfig', '--audit-webhook-mode=blocking', '--audit-webhook-batch-max-size=10', '--audit-webhook-batch-throttle-qps=2.5',
    '--audit-webhook-batch-initial-backoff=3s']);
  const a = c.options.audit!;
  assert.equal(a.policyFile, '/p.yaml');
  assert.deepEqual({ ...a.log, batch: undefined, truncate: undefined }, { path: '-', maxAge: 7, maxBackups: 3, maxSize: 50, format: 'legacy', compress: true, version: 'audit.k8s.io/v1', batch: undefined, truncate: undefined });
  assert.equal(a.log?.batch?.mode, 'blocking-strict');
  assert.deepEqual(a.log?.truncate, { enabled: true, maxBatchSize: 10485760, maxEventSize: 2048 });
  assert.equal(a.webhook?.configFile, '/w.kubeconfig');
  assert.equal(a.webhook?.batch?.mode, 'blocking');
  assert.equal(a.webhook?.batch?.maxBatchSize, 10);
  assert.equal(a.webhook?.batch?.throttleQPS, 2.5);
  assert.equal(a.webhook?.initialBackoffMs, 3000);
  assert.ok(c.notices.some((n) => n.startsWith('Flag --audit-webhook-batch-initial-backoff has been deprecated')));
  assert.equal(parseCommandLine(['--audit-webhook-batch-initial-backoff=3s', '--audit-webhook-initial-backoff=4s']).options.audit?.webhook?.initialBackoffMs, 4000);
});

void test('leader election flags: kube-controller-manager\'s names and defaults; bad timing and lock types refused', async () => {
  const d = parseCommandLine([]).options.leaderElection!;
  assert.deepEqual(d, { leaderElect: true, leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000, resourceName: 'kube-controller-manager', resourceNamespace: 'kube-system' });
  const c = parseCommandLine(['--leader-elect=false', '--leader-elect-lease-duration=4s', '--leader-elect-renew-deadline=3s', '--leader-elect-retry-period=1s', '--leader-elect-resource-name=keelson', '--leader-elect-resource-namespace=ops']).options.leaderElection!;
  assert.deepEqual(c, { leaderElect: false, leaseDurationMs: 4_000, renewDeadlineMs: 3_000, retryPeriodMs: 1_000, resourceName: 'keelson', resourceNamespace: 'ops' });
  assert.throws(() => parseCommandLine(['--leader-elect-resource-lock=endpoints']), /--leader-elect-resource-lock: invalid lock-type "endpoints" \(only leases\)/);
  const { resolveOptions } = await import('../controlplane/options.ts');
  assert.throws(() => resolveOptions(parseCommandLine(['--leader-elect-renew-deadline=20s']).options), /leaseDuration must be greater than renewDeadline/);
  assert.throws(() => resolveOptions(parseCommandLine(['--leader-elect-retry-period=9s']).options), /renewDeadline must be greater than retryPeriod\*JitterFactor/);
  // Not checked when leader election is off (kube-controller-manager validates only what it uses).
  assert.equal(resolveOptions({ ...parseCommandLine(['--leader-elect=false', '--leader-elect-renew-deadline=20s']).options, dataDir: '/tmp/x' }).leaderElection.leaderElect, false);
  assert.match(usage(), /--leader-elect-lease-duration duration\s+.*\(default 15s\)/);
});
