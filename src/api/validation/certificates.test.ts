// validateCertificateSigningRequest / ValidateSignerName (pkg/apis/certificates/validation, pkg/apis/core/validation).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { validateCertificateSigningRequest, validateCertificateSigningRequestStatus, validateSignerName } from './certificates.ts';
import type { J } from './util.ts';

x509.cryptoProvider.set(webcrypto as never);

async function csrPem(): Promise<string> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const req = await x509.Pkcs10CertificateRequestGenerator.create({ name: 'CN=alice', keys, signingAlgorithm: alg });
  return req.toString('pem');
}

const csr = (spec: J): J => ({ metadata: { name: 'c' }, spec });
const b64 = (s: string): string => Buffer.from(s).toString('base64');

test('csr: a signed request with known usages and a signer passes', async () => {
  const pem = await csrPem();
  assert.deepEqual(validateCertificateSigningRequest(csr({ request: b64(pem), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], expirationSeconds: 600 })).map(String), []);
  // A flipped byte in the signature fails the self-signature check.
  const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  der[der.length - 5] = der[der.length - 5]! ^ 0xff;
  const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
  const errs = validateCertificateSigningRequest(csr({ request: b64(tampered), signerName: 'example.com/s', usages: ['any'] }));
  assert.equal(errs.length, 1);
  assert.equal(errs[0]!.field, 'spec.request');
});

test('csr: PEM type, usages, signer name, expiration', () => {
  assert.deepEqual(validateCertificateSigningRequest(csr({ request: b64('-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n').slice(0, 0), signerName: 'kubernetes.io/legacy-unknown', usages: ['client auth', 'flying', 'client auth'], expirationSeconds: 60 })).map(String), [
    'spec.request: Invalid value: []byte{}: PEM block type must be CERTIFICATE REQUEST',
    'spec.usages[1]: Unsupported value: "flying": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"',
    'spec.usages[2]: Duplicate value: "client auth"',
    'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
    'spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)',
  ]);
  assert.deepEqual(validateSignerName('', 'p').map(String), ['p: Required value']);
  assert.deepEqual(validateSignerName('example', 'p').map(String), ["p: Invalid value: \"example\": must be a fully qualified domain and path of the form 'example.com/signer-name'"]);
  assert.deepEqual(validateSignerName('example/x', 'p').map(String), ['p: Invalid value: "example": should be a domain with at least two segments separated by dots']);
});

test('csr status: the issued certificate is CERTIFICATE PEM and may not be replaced once set', async () => {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({ name: 'CN=a', keys, signingAlgorithm: alg, notBefore: new Date(0), notAfter: new Date(8.64e15) });
  const withCert = (c: string, conditions: J[] = [{ type: 'Approved', status: 'True' }]): J => ({ metadata: { name: 'c' }, spec: {}, status: { conditions, certificate: c ? b64(c) : undefined } });
  assert.deepEqual(validateCertificateSigningRequestStatus(withCert(cert.toString('pem')), withCert('')).map(String), []);
  assert.deepEqual(validateCertificateSigningRequestStatus(withCert('-----BEGIN CERTIFICATE REQUEST-----\nAA==\n-----END CERTIFICATE REQUEST-----\n'), withCert('')).map(String), [
    'status.certificate: Invalid value: "<certificate data>": only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"',
  ]);
  assert.deepEqual(validateCertificateSigningRequestStatus(withCert('', [{ type: 'Approved' }, { type: 'Denied' }]), withCert(cert.toString('pem'))).map(String), [
    'status.conditions: Invalid value: "": Approved and Denied conditions are mutually exclusive',
    'status.certificate: Forbidden: updates may not modify existing certificate content',
  ]);
});
