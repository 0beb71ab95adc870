/**
 * A server started without the in-process controllers (`controllers: false`, kube-apiserver without a controller
 * manager) still runs kube-apiserver's own post-start work: the system namespaces exist and the default RBAC
 * policy is in place before it reports ready, so RBAC decisions work from the first request.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';

let srv: TestServer;
before(async () => { srv = await startTestServer({ controllers: false, authorizationMode: ['Node', 'RBAC'] }); });
after(async () => { await srv?.stop(); });

void test('system namespaces and the default RBAC policy exist without controllers', async () => {
  for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    assert.equal((await srv.request('GET', `/api/v1/namespaces/${ns}`)).status, 200, ns);
  }
  const view = await srv.request('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:public-info-viewer');
  assert.equal(view.status, 200, view.text);
  assert.equal((await srv.request('GET', '/apis/rbac.authorization.k8s.io/v1/namespaces/kube-system/roles/extension-apiserver-authentication-reader')).status, 200);
  // Anonymous may read /version through system:public-info-viewer, and nothing else.
  assert.equal((await srv.request('GET', '/version', { user: 'anonymous' })).status, 200);
  assert.equal((await srv.request('GET', '/api/v1/namespaces', { user: 'anonymous' })).status, 403);
});
