import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newRequestInfo, exactNameFromFieldSelector, RequestInfoError, requestInfoFor } from './request-info.ts';

const u = (p: string): URL => new URL(`https://x${p}`);

// [method, url, verb, group, version, namespace, resource, subresource, name, parts]
type Row = [string, string, string, string, string, string, string, string, string, string[]];
const rows: Row[] = [
  ['GET', '/api/v1/namespaces', 'list', '', 'v1', '', 'namespaces', '', '', ['namespaces']],
  ['GET', '/api/v1/namespaces/other', 'get', '', 'v1', 'other', 'namespaces', '', 'other', ['namespaces', 'other']],
  ['GET', '/api/v1/namespaces/other/pods', 'list', '', 'v1', 'other', 'pods', '', '', ['pods']],
  ['GET', '/api/v1/namespaces/other/pods/foo', 'get', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']],
  ['HEAD', '/api/v1/namespaces/other/pods/foo', 'get', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']],
  ['GET', '/api/v1/pods', 'list', '', 'v1', '', 'pods', '', '', ['pods']],
  ['HEAD', '/api/v1/pods', 'list', '', 'v1', '', 'pods', '', '', ['pods']],
  ['GET', '/api/v1/proxy/namespaces/other/pods/foo', 'proxy', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']],
  ['GET', '/api/v1/proxy/namespaces/other/pods/foo/sub/path', 'proxy', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo', 'sub', 'path']],
  ['GET', '/api/v1/watch/pods', 'watch', '', 'v1', '', 'pods', '', '', ['pods']],
  ['GET', '/api/v1/pods?watch=true', 'watch', '', 'v1', '', 'pods', '', '', ['pods']],
  ['GET', '/api/v1/pods?watch=false', 'list', '', 'v1', '', 'pods', '', '', ['pods']],
  ['GET', '/api/v1/watch/namespaces/other/pods', 'watch', '', 'v1', 'other', 'pods', '', '', ['pods']],
  ['GET', '/api/v1/namespaces/other/pods?watch=1', 'watch', '', 'v1', 'other', 'pods', '', '', ['pods']],
  ['GET', '/api/v1/namespaces/other/pods?watch=0', 'list', '', 'v1', 'other', 'pods', '', '', ['pods']],
  ['GET', '/api/v1/namespaces/other/pods/foo/status', 'get', '', 'v1', 'other', 'pods', 'status', 'foo', ['pods', 'foo', 'status']],
  ['GET', '/api/v1/namespaces/other/pods/foo/proxy/subpath', 'get', '', 'v1', 'other', 'pods', 'proxy', 'foo', ['pods', 'foo', 'proxy', 'subpath']],
  ['PUT', '/api/v1/namespaces/other/finalize', 'update', '', 'v1', 'other', 'namespaces', 'finalize', 'other', ['namespaces', 'other', 'finalize']],
  ['PUT', '/api/v1/namespaces/other/status', 'update', '', 'v1', 'other', 'namespaces', 'status', 'other', ['namespaces', 'other', 'status']],
  ['PATCH', '/api/v1/namespaces/other/pods/foo', 'patch', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']],
  ['DELETE', '/api/v1/namespaces/other/pods/foo', 'delete', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']],
  ['POST', '/api/v1/namespaces/other/pods', 'create', '', 'v1', 'other', 'pods', '', '', ['pods']],
  ['DELETE', '/api/v1/nodes', 'deletecollection', '', 'v1', '', 'nodes', '', '', ['nodes']],
  ['DELETE', '/api/v1/namespaces', 'deletecollection', '', 'v1', '', 'namespaces', '', '', ['namespaces']],
  ['DELETE', '/api/v1/namespaces/other/pods', 'deletecollection', '', 'v1', 'other', 'pods', '', '', ['pods']],
  ['DELETE', '/apis/apps/v1/namespaces/other/deployments', 'deletecollection', 'apps', 'v1', 'other', 'deployments', '', '', ['deployments']],
  ['POST', '/apis/apps/v1beta3/namespaces/other/deployments', 'create', 'apps', 'v1beta3', 'other', 'deployments', '', '', ['deployments']],
  ['GET', '/apis/apps/v1/deployments', 'list', 'apps', 'v1', '', 'deployments', '', '', ['deployments']],
  ['PUT', '/apis/apps/v1/namespaces/ns/deployments/web/scale', 'update', 'apps', 'v1', 'ns', 'deployments', 'scale', 'web', ['deployments', 'web', 'scale']],
  ['OPTIONS', '/api/v1/pods/x', '', '', 'v1', '', 'pods', '', 'x', ['pods', 'x']],
  // a single-object list/watch names its object for authorization
  ['GET', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dcm1', 'list', '', 'v1', 'ns', 'configmaps', '', 'cm1', ['configmaps']],
  ['GET', '/api/v1/namespaces/ns/configmaps?watch=1&fieldSelector=metadata.name%3D%3Dcm1', 'watch', '', 'v1', 'ns', 'configmaps', '', 'cm1', ['configmaps']],
  ['GET', '/api/v1/configmaps?fieldSelector=metadata.name!%3Dcm1', 'list', '', 'v1', '', 'configmaps', '', '', ['configmaps']],
  ['DELETE', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dcm1', 'deletecollection', '', 'v1', 'ns', 'configmaps', '', '', ['configmaps']],
];

for (const [method, url, verb, group, version, ns, resource, sub, name, parts] of rows) {
  void test(`request info: ${method} ${url}`, () => {
    const i = newRequestInfo(method, u(url));
    assert.equal(i.isResourceRequest, true);
    assert.deepEqual(
      { verb: i.verb, group: i.apiGroup, version: i.apiVersion, ns: i.namespace, resource: i.resource, sub: i.subresource, name: i.name, parts: i.parts },
      { verb, group, version, ns, resource, sub, name, parts },
    );
    assert.equal(i.apiPrefix, url.startsWith('/apis') ? 'apis' : 'api');
  });
}

const nonResource: [string, string, string][] = [
  ['GET', '/', 'get'],
  ['GET', '/api', 'get'],
  ['GET', '/api/v1', 'get'],
  ['GET', '/apis', 'get'],
  ['GET', '/apis/apps', 'get'],
  ['GET', '/apis/apps/v1', 'get'],
  ['GET', '/healthz', 'get'],
  ['GET', '/readyz/ping', 'get'],
  ['POST', '/other/path/segments/here', 'post'],
  ['GET', '/apis/apps/', 'get'],
];
for (const [method, url, verb] of nonResource) {
  void test(`request info: non-resource ${method} ${url}`, () => {
    const i = newRequestInfo(method, u(url));
    assert.equal(i.isResourceRequest, false);
    assert.equal(i.verb, verb);
    assert.equal(i.path, new URL(`https://x${url}`).pathname);
  });
}

void test('request info: /api/v1/watch alone cannot be classified', () => {
  assert.throws(() => newRequestInfo('GET', u('/api/v1/watch')), RequestInfoError);
});

void test('field selector: exact metadata.name requirements', () => {
  assert.equal(exactNameFromFieldSelector('metadata.name=a'), 'a');
  assert.equal(exactNameFromFieldSelector('status.phase=Running,metadata.name==b'), 'b');
  assert.equal(exactNameFromFieldSelector('metadata.name!=a'), undefined);
  assert.equal(exactNameFromFieldSelector('metadata.namespace=a'), undefined);
  assert.equal(exactNameFromFieldSelector('metadata.name=a\\,b'), 'a,b');
});

void test('requestInfoFor: one frozen info per (method, path); a collection GET with a query is derived afresh', () => {
  const a = requestInfoFor('GET', u('/api/v1/namespaces/ns/configmaps/x'));
  assert.equal(requestInfoFor('GET', u('/api/v1/namespaces/ns/configmaps/x')), a);
  assert.ok(Object.isFrozen(a) && Object.isFrozen(a.parts));
  assert.deepEqual(a, newRequestInfo('GET', u('/api/v1/namespaces/ns/configmaps/x')));
  assert.equal(requestInfoFor('DELETE', u('/api/v1/namespaces/ns/configmaps/x')).verb, 'delete');
  assert.equal(requestInfoFor('GET', u('/api/v1/namespaces/ns/configmaps')).verb, 'list');
  assert.equal(requestInfoFor('GET', u('/api/v1/namespaces/ns/configmaps?watch=1')).verb, 'watch');
  assert.equal(requestInfoFor('GET', u('/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dy')).name, 'y');
  assert.throws(() => requestInfoFor('GET', u('/api/v1/watch')), RequestInfoError);
});
