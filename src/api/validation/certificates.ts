/**
 * certificates.k8s.io/v1 CertificateSigningRequest (pkg/apis/certificates/validation/validation.go:
 * validateCertificateSigningRequest with v1's create options, validateCSR; pkg/apis/core/validation
 * ValidateSignerName). The request must be a PEM "CERTIFICATE REQUEST" whose self-signature verifies.
 * Status conditions (approval) are checked on the /approval and /status writes: types required, Approved and
 * Denied exclusive, no duplicate types.
 */
import { verify } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as X509 from '@peculiar/x509';
import { FieldError, field } from '../../machinery/errors.ts';
import { isDNS1123Label, isDNS1123Subdomain } from '../../machinery/validation/names.ts';
import { RenderedFieldError, type J, arr, isSet, obj, str } from './util.ts';

const USAGES = ['any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment', 'decipher only',
  'digital signature', 'email protection', 'encipher only', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'key agreement',
  'key encipherment', 'microsoft sgc', 'netscape sgc', 'ocsp signing', 's/mime', 'server auth', 'signing', 'timestamping'];
const LEGACY_SIGNER = 'kubernetes.io/legacy-unknown';

/** `%#v` of a []byte: `[]byte{0x2d, 0xa}` (kube passes the raw request as the bad value). */
export function goBytes(b: Uint8Array): string {
  return `[]byte{${[...b].map((x) => `0x${x.toString(16)}`).join(', ')}}`;
}

/** The bytes of the first element inside a DER SEQUENCE (the signed part of a CSR). */
function firstElement(der: Uint8Array): Uint8Array {
  const len = (at: number): [number, number] => {
    const b = der[at]!;
    if (b < 0x80) return [b, at + 1];
    let n = 0;
    for (let i = 1; i <= (b & 0x7f); i++) n = (n << 8) | der[at + i]!;
    return [n, at + 1 + (b & 0x7f)];
  };
  const [, inner] = len(1);
  const [size, body] = len(inner + 1);
  return der.subarray(inner, body + size);
}

/**
 * @peculiar/x509 costs ~80 ms to load and is needed only when a CSR is validated: loaded on first use (sync, as
 * validation is), not at startup.
 */
let x509Module: typeof X509 | undefined;
function x509(): typeof X509 {
  if (!x509Module) {
    const load = createRequire(import.meta.url);
    load('reflect-metadata');
    x509Module = load('@peculiar/x509') as typeof X509;
  }
  return x509Module;
}

/** certificates.ParseCSR + CheckSignature: the error text, or undefined when the request is good. */
export function checkCSR(pemBytes: Uint8Array): string | undefined {
  const text = Buffer.from(pemBytes).toString('latin1');
  const m = /-----BEGIN ([^-]+)-----([\s\S]*?)-----END \1-----/.exec(text);
  if (!m || m[1] !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  let req: X509.Pkcs10CertificateRequest;
  const der = Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64');
  try {
    req = new (x509().Pkcs10CertificateRequest)(der);
  } catch {
    return 'asn1: structure error: tags don\'t match';
  }
  const alg = req.signatureAlgorithm as unknown as { name?: string; hash?: { name?: string } };
  if (alg.name === 'RSA-PSS') return undefined; // node's verify needs the PSS parameters; trust the parse
  const hash = alg.hash?.name ? alg.hash.name.replace('-', '').toLowerCase() : null;
  try {
    const ok = verify(hash, firstElement(der), { key: Buffer.from(req.publicKey.rawData), format: 'der', type: 'spki' }, Buffer.from(req.signature));
    return ok ? undefined : 'x509: ECDSA verification failure';
  } catch {
    return 'x509: cannot verify signature: algorithm unimplemented';
  }
}

/** ValidateSignerName */
export function validateSignerName(signer: string, path: string): FieldError[] {
  if (!signer) return [field.required(path)];
  const segs = signer.split('/');
  if (segs.length !== 2) return [field.invalid(path, signer, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain = '', rest = ''] = segs;
  const errs: FieldError[] = [];
  if (domain.length > 253) errs.push(field.tooLong(path, '', 253));
  const labels = domain.split('.');
  for (const lbl of labels) {
    const m = isDNS1123Label(lbl);
    if (m.length) { for (const x of m) errs.push(field.invalid(path, domain, `validating label ${JSON.stringify(lbl)}: ${x}`)); break; }
  }
  if (labels.length < 2) errs.push(field.invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const lbl of rest.split('.')) {
    const m = isDNS1123Subdomain(lbl);
    if (m.length) { for (const x of m) errs.push(field.invalid(path, rest, `validating label ${JSON.stringify(lbl)}: ${x}`)); break; }
  }
  if (signer.length > 253 + 253 + 63 + 1 + 1) errs.push(field.tooLong(path, '', 571));
  return errs;
}

function decodeRequest(v: unknown): Uint8Array {
  return typeof v === 'string' ? Buffer.from(v, 'base64') : new Uint8Array();
}

function validateConditions(csr: J): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  arr(obj(csr['status'])['conditions']).forEach((raw, i) => {
    const type = str(obj(raw)['type']);
    const p = `status.conditions[${i}].type`;
    if (!type) errs.push(field.required(p));
    else if (seen.has(type)) errs.push(field.duplicate(p, type));
    seen.add(type);
  });
  if (seen.has('Approved') && seen.has('Denied')) errs.push(field.invalid('status.conditions', '', 'Approved and Denied conditions are mutually exclusive'));
  return errs;
}

export function validateCertificateSigningRequest(csr: J): FieldError[] {
  const spec = obj(csr['spec']);
  const errs: FieldError[] = [];
  const request = decodeRequest(spec['request']);
  const bad = checkCSR(request);
  if (bad) errs.push(new RenderedFieldError('FieldValueInvalid', 'spec.request', goBytes(request), bad));
  const usages = arr(spec['usages']).map(str);
  if (usages.length === 0) errs.push(field.required('spec.usages', 'usages must be provided'));
  usages.forEach((u, i) => { if (!USAGES.includes(u)) errs.push(field.notSupported(`spec.usages[${i}]`, u, USAGES)); });
  const seen = new Set<string>();
  usages.forEach((u, i) => {
    if (seen.has(u)) errs.push(field.duplicate(`spec.usages[${i}]`, u));
    seen.add(u);
  });
  const signer = str(spec['signerName']);
  if (signer === LEGACY_SIGNER) errs.push(field.invalid('spec.signerName', signer, 'the legacy signerName is not allowed via this API version'));
  else errs.push(...validateSignerName(signer, 'spec.signerName'));
  const exp = spec['expirationSeconds'];
  if (isSet(exp) && typeof exp === 'number' && exp < 600) errs.push(field.invalid('spec.expirationSeconds', exp, 'may not specify a duration less than 600 seconds (10 minutes)'));
  errs.push(...validateConditions(csr));
  return errs;
}

/** validateCertificate: status.certificate holds only parseable CERTIFICATE PEM blocks without headers. */
export function checkIssuedCertificate(pemBytes: Uint8Array): string | undefined {
  if (pemBytes.length === 0) return undefined;
  const text = Buffer.from(pemBytes).toString('latin1');
  const re = /-----BEGIN ([^-\r\n]+)-----\r?\n([\s\S]*?)-----END \1-----/g;
  let blocks = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[1] !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(m[1])}`;
    if (/^[\w-]+:/m.test(m[2]!)) return 'no PEM block headers are permitted';
    blocks++;
    try {
      new (x509().X509Certificate)(Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64'));
    } catch {
      return 'x509: malformed certificate';
    }
  }
  return blocks === 0 ? 'must contain at least one CERTIFICATE PEM block' : undefined;
}

/**
 * Writes to /status and /approval (the spec of such a write is the stored one): the conditions, the issued
 * certificate's form, and an issued certificate may not be replaced.
 */
export function validateCertificateSigningRequestStatus(csr: J, old: J): FieldError[] {
  const errs = validateConditions(csr);
  const cert = str(obj(csr['status'])['certificate']);
  const bad = checkIssuedCertificate(decodeRequest(cert));
  if (bad) errs.push(field.invalid('status.certificate', '<certificate data>', bad));
  const oldCert = str(obj(old['status'])['certificate']);
  if (oldCert && cert !== oldCert) errs.push(field.forbidden('status.certificate', 'updates may not modify existing certificate content'));
  return errs;
}
