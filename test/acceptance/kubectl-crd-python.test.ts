/**
 * Acceptance with the official Python client (`kubernetes` package) and a CRD: create the CRD with
 * ApiextensionsV1Api, wait for Established, then create/list/get/merge-patch/delete custom objects with
 * CustomObjectsApi and read them through the dynamic client (discovery of the new group). Skips with the
 * reason when no python3 can import the client.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.ts';
import { findPython } from '../support/python.ts';

const py = findPython();
const skip = py.bin ? false : py.reason;
if (skip) process.stderr.write(`skipping python CRD acceptance: ${skip}\n`);

const SCRIPT = `
import json, sys, time
from kubernetes import client, config, dynamic

config.load_kube_config(config_file=sys.argv[1])
api = client.ApiClient()
ext = client.ApiextensionsV1Api(api)
crd = {
  "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "pets.zoo.example.com"},
  "spec": {"group": "zoo.example.com", "scope": "Namespaced",
    "names": {"plural": "pets", "singular": "pet", "kind": "Pet"},
    "versions": [{"name": "v1", "served": True, "storage": True,
      "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "species": {"type": "string"}, "legs": {"type": "integer", "default": 4}}}}}}}]}}
ext.create_custom_resource_definition(crd)
out = {}
for _ in range(200):
    c = ext.read_custom_resource_definition("pets.zoo.example.com")
    conds = {x.type: x.status for x in (c.status.conditions or [])}
    if conds.get("Established") == "True":
        break
    time.sleep(0.05)
out["established"] = conds.get("Established")
co = client.CustomObjectsApi(api)
co.create_namespaced_custom_object("zoo.example.com", "v1", "default", "pets",
    {"apiVersion": "zoo.example.com/v1", "kind": "Pet", "metadata": {"name": "rex"}, "spec": {"species": "dog"}})
got = co.get_namespaced_custom_object("zoo.example.com", "v1", "default", "pets", "rex")
out["defaulted_legs"] = got["spec"]["legs"]
co.patch_namespaced_custom_object("zoo.example.com", "v1", "default", "pets", "rex", {"spec": {"legs": 3}})
lst = co.list_namespaced_custom_object("zoo.example.com", "v1", "default", "pets")
out["listed"] = [[i["metadata"]["name"], i["spec"]["legs"]] for i in lst["items"]]
dyn = dynamic.DynamicClient(api)
pets = dyn.resources.get(api_version="zoo.example.com/v1", kind="Pet")
out["dynamic"] = [i.metadata.name for i in pets.get(namespace="default").items]
co.delete_namespaced_custom_object("zoo.example.com", "v1", "default", "pets", "rex")
try:
    co.get_namespaced_custom_object("zoo.example.com", "v1", "default", "pets", "rex")
    out["after_delete"] = "still there"
except client.exceptions.ApiException as e:
    out["after_delete"] = e.status
print(json.dumps(out))
`;

let dir = '';
let srv: TestServer | undefined;
before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-pycrd-'));
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
});
after(async () => {
  await srv?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

void test('python client: a CRD and its custom objects', { skip }, async () => {
  const script = path.join(dir, 'crd.py');
  writeFileSync(script, SCRIPT);
  const child = spawn(py.bin!, [script, srv!.kubeconfigPath], { stdio: ['ignore', 'pipe', 'pipe'] });
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
  assert.deepEqual(out, { established: 'True', defaulted_legs: 4, listed: [['rex', 3]], dynamic: ['rex'], after_delete: 404 });
});
