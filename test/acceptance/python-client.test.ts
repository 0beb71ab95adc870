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
