/**
 * The etcd backend over mutual TLS (kube-apiserver's --etcd-cafile/--etcd-certfile/--etcd-keyfile), against
 * a throwaway etcd that requires client certificates. Certificates come from the `openssl` CLI; the test
 * skips with a reason when `etcd` or `openssl` is missing.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { promisify } from 'node:util';
import { findEtcdBinary, startEtcd } from '../../../test/support/etcd.ts';
import { StorageError, StorageUnavailableError } from '../interface.ts';
import { openEtcdStore } from './etcd-store.ts';

const run = promisify(execFile);

async function hasOpenssl(): Promise<boolean> {
  try {
    await run('openssl', ['version']);
    return true;
  } catch {
    return false;
  }
}

/** A CA, a server certificate for 127.0.0.1 and a client certificate, as PEM files in `dir`. */
async function makeCerts(dir: string): Promise<Record<'ca' | 'serverCert' | 'serverKey' | 'clientCert' | 'clientKey', string>> {
  const f = (name: string): string => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', ['req', '-x509', ...ec, '-keyout', f('ca.key'), '-out', f('ca.crt'), '-subj', '/CN=keelson-test-ca', '-days', '1']);
  for (const [name, ext] of [
    ['server', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n'],
    ['client', 'extendedKeyUsage=clientAuth\n'],
  ] as const) {
    await writeFile(f(`${name}.ext`), ext);
    await run('openssl', ['req', ...ec, '-keyout', f(`${name}.key`), '-out', f(`${name}.csr`), '-subj', `/CN=keelson-${name}`]);
    await run('openssl', [
      'x509', '-req', '-in', f(`${name}.csr`), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial',
      '-out', f(`${name}.crt`), '-days', '1', '-extfile', f(`${name}.ext`),
    ]);
  }
  return {
    ca: f('ca.crt'),
    serverCert: f('server.crt'),
    serverKey: f('server.key'),
    clientCert: f('client.crt'),
    clientKey: f('client.key'),
  };
}

void it('etcd store over mutual TLS: works with the client certificate, is refused without one', async (t) => {
  if (!findEtcdBinary()) return t.skip('no etcd binary found (install Debian etcd-server or set KEELSON_ETCD_BIN)');
  if (!(await hasOpenssl())) return t.skip('no openssl binary to make test certificates');
  const dir = await mkdtemp(join(tmpdir(), 'keelson-etcd-tls-'));
  try {
    const certs = await makeCerts(dir);
    const etcd = await startEtcd({ tls: { certFile: certs.serverCert, keyFile: certs.serverKey, caFile: certs.ca } });
    assert.ok(etcd);
    try {
      assert.match(etcd.endpoint, /^https:/);
      const s = await openEtcdStore({
        servers: [etcd.endpoint],
        prefix: '/tls',
        caFile: certs.ca,
        certFile: certs.clientCert,
        keyFile: certs.clientKey,
      });
      try {
        const c = await s.create('/registry/x', new Uint8Array([1, 2, 3]));
        assert.ok(c.succeeded);
        assert.deepEqual([...(await s.get('/registry/x'))!.value], [1, 2, 3]);
        await s.ping!();
      } finally {
        await s.close();
      }
      // Trusting the server but presenting no client certificate: etcd refuses the handshake.
      await assert.rejects(
        openEtcdStore({ servers: [etcd.endpoint], caFile: certs.ca, dialTimeoutMs: 1000 }),
        StorageUnavailableError,
      );
      // Configuration mistakes are named.
      await assert.rejects(openEtcdStore({ servers: [etcd.endpoint], certFile: certs.clientCert }), /certFile and keyFile must be given together/);
      await assert.rejects(
        openEtcdStore({ servers: [etcd.endpoint], caFile: join(dir, 'missing.crt') }),
        (e: unknown) => e instanceof StorageError && e.message.includes('cannot read caFile'),
      );
    } finally {
      await etcd.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
