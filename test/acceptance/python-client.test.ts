/**
 * Acceptance with the official Python client (`kubernetes` package): load the kubeconfig the server wrote,
 * create, list, watch and delete a ConfigMap. Skips with the reason when no python3 can import it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startKeelson, type KeelsonProcess } from './keelson-process.ts';
import { findPython } from '../support/python.ts';

const py = findPython();
const skip = py.bin ? false : py.reason;
if (skip) process.stderr.write(`skipping python client acceptance: ${skip}\n`);

const SCRIPT = `
import json, sys, threading
from kubernetes import client, config, watch

config.load_kube_config(config_file=sys.argv[1])
v1 = client.CoreV1Api()
ns = "default"
out = {}

created = v1.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-cm", labels={"from": "python"}), data={"k": "v"}))
out["created_uid"] = created.metadata.uid
lst = v1.list_namespaced_config_map(ns, label_selector="from=python")
out["listed"] = [i.metadata.name for i in lst.items]
out["list_rv"] = lst.metadata.resource_version

# Change (PUT: the client's default PATCH type is strategic merge, a later issue), then delete; a watch from the list's resourceVersion replays both changes in order.
cur = v1.read_namespaced_config_map("py-cm", ns)
cur.data = {"k": "v2"}
v1.replace_namespaced_config_map("py-cm", ns, cur)
v1.delete_namespaced_config_map("py-cm", ns)
w = watch.Watch()
events = []
for ev in w.stream(v1.list_namespaced_config_map, ns, label_selector="from=python", resource_version=lst.metadata.resource_version, timeout_seconds=20):
    events.append([ev["type"], ev["object"].metadata.name, ev["object"].data])
    if len(events) == 2:
        w.stop()
out["events"] = events
try:
    v1.read_namespaced_config_map("py-cm", ns)
    out["after_delete"] = "still there"
except client.exceptions.ApiException as e:
    out["after_delete"] = [e.status, json.loads(e.body)["reason"]]
print(json.dumps(out))
`;

/**
 * The generated models treat Go fields without omitempty as required: every ReplicationController and DaemonSet
 * must carry status.replicas / the DaemonSet counters, or deserialization raises ValueError.
 */
const YAML_SCRIPT = `
import json, sys
from kubernetes import client, config, utils

config.load_kube_config(config_file=sys.argv[1])
api = client.ApiClient()
v1 = client.CoreV1Api()
apps = client.AppsV1Api()
v1.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name="pyyaml")))
created = utils.create_from_yaml(api, sys.argv[2], namespace="pyyaml")
out = {"created": sorted(o.kind for group in created for o in group)}
rc = v1.read_namespaced_replication_controller("rc1", "pyyaml")
out["rc_replicas"] = rc.status.replicas
out["rc_limits"] = rc.spec.template.spec.containers[0].resources.limits
ds = apps.list_namespaced_daemon_set("pyyaml")
out["ds"] = [[d.metadata.name, d.status.current_number_scheduled, d.status.number_misscheduled, d.status.desired_number_scheduled, d.status.number_ready] for d in ds.items]
out["rcs"] = [r.metadata.name for r in v1.list_namespaced_replication_controller("pyyaml").items]
out["svc_ports"] = [p.port for p in v1.read_namespaced_service("svc1", "pyyaml").spec.ports]
out["cm"] = v1.read_namespaced_config_map("cm1", "pyyaml").data
print(json.dumps(out))
`;

const MANIFESTS = `apiVersion: v1
kind: ReplicationController
metadata:
  name: rc1
spec:
  replicas: 1
  selector: {app: rc1}
  template:
    metadata:
      labels: {app: rc1}
    spec:
      containers:
      - name: c
        image: busybox
        resources:
          limits: {cpu: "0.5", memory: 0.5Gi}
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ds1
spec:
  selector:
    matchLabels: {app: ds1}
  template:
    metadata:
      labels: {app: ds1}
    spec:
      containers:
      - name: c
        image: busybox
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: dep1
spec:
  replicas: 1
  selector:
    matchLabels: {app: dep1}
  template:
    metadata:
      labels: {app: dep1}
    spec:
      containers:
      - name: c
        image: nginx
---
apiVersion: v1
kind: Service
metadata:
  name: svc1
spec:
  selector: {app: dep1}
  ports:
  - port: 80
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm1
data:
  z: "1"
  a: "2"
`;

let dir = '';
let server: KeelsonProcess | undefined;
before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-py-'));
  server = await startKeelson({ dataDir: path.join(dir, 'data'), kubeconfig: path.join(dir, 'kc') });
});
after(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

void test('python client: create, list, watch, delete a configmap', { skip }, async () => {
  const script = path.join(dir, 'client.py');
  writeFileSync(script, SCRIPT);
  const child = spawn(py.bin!, [script, path.join(dir, 'kc')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c; });
  child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
  const code = await new Promise<number | null>((resolve) => {
    const t = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (c) => { clearTimeout(t); resolve(c); });
  });
  assert.equal(code, 0, `python exited ${code}:\n${stderr}\n${stdout}`);
  const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
  assert.match(out.created_uid, /^[0-9a-f-]{36}$/);
  assert.deepEqual(out.listed, ['py-cm']);
  assert.deepEqual(out.events, [['MODIFIED', 'py-cm', { k: 'v2' }], ['DELETED', 'py-cm', { k: 'v2' }]]);
  assert.deepEqual(out.after_delete, [404, 'NotFound']);
});

async function runPython(script: string, args: string[]): Promise<any> {
  const child = spawn(py.bin!, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c; });
  child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
  const code = await new Promise<number | null>((resolve) => {
    const t = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (c) => { clearTimeout(t); resolve(c); });
  });
  assert.equal(code, 0, `python exited ${code}:\n${stderr}\n${stdout}`);
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

void test('python client: create_from_yaml of RC, DaemonSet, Deployment, Service, ConfigMap; reads deserialize', { skip }, async () => {
  const script = path.join(dir, 'from_yaml.py');
  const manifests = path.join(dir, 'objects.yaml');
  writeFileSync(script, YAML_SCRIPT);
  writeFileSync(manifests, MANIFESTS);
  const out = await runPython(script, [path.join(dir, 'kc'), manifests]);
  assert.deepEqual(out.created, ['ConfigMap', 'DaemonSet', 'Deployment', 'ReplicationController', 'Service']);
  assert.equal(out.rc_replicas, 0);
  assert.deepEqual(out.rc_limits, { cpu: '500m', memory: '512Mi' });
  assert.deepEqual(out.ds, [['ds1', 0, 0, 0, 0]]);
  assert.deepEqual(out.rcs, ['rc1']);
  assert.deepEqual(out.svc_ports, [80]);
  assert.deepEqual(out.cm, { a: '2', z: '1' });
});
