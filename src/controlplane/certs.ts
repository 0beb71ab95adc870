/**
 * Issuing X.509 certificates with node:crypto keys (ECDSA P-256: fast to generate, accepted by kubectl,
 * client-go and Python's ssl) for the zero-config PKI (pki.ts) and for tests that need their own CAs.
 * The certificate is written directly in DER (machinery/der.ts) and signed with crypto.sign: the general
 * X.509 library this replaced took 250–350 ms to load, most of a first start's certificate phase.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPair, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import { promisify } from 'node:util';
import {
  bitString, boolean, children, explicit, implicit, namedBits, nullValue, objectIdentifier, octetString, readElement,
  sequence, set, smallInteger, time, unsignedInteger, utf8String,
} from '../machinery/der.ts';

/** A certificate and its private key, as PEM, plus what signing further certificates with it needs. */
export interface Issued {
  readonly certPem: string;
  readonly keyPem: string;
  readonly privateKey: KeyObject;
  /** The DER-encoded subject Name (the issuer Name of what this signs). */
  readonly subject: Buffer;
  /** The subject key identifier (the authority key identifier of what this signs). */
  readonly keyId: Buffer;
}

export interface SubjectSpec {
  readonly cn: string;
  readonly o?: readonly string[];
}

export interface IssueOptions {
  readonly subject: SubjectSpec;
  /** Signer; omitted = self-signed. */
  readonly issuer?: Issued;
  readonly isCa?: boolean;
  readonly usage?: 'server' | 'client' | 'both';
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly notBefore?: Date;
  readonly notAfter?: Date;
  /** Validity in days from now when notAfter is not given. */
  readonly days?: number;
}

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  ecPublicKey: '1.2.840.10045.2.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  subjectKeyId: '2.5.29.14',
  authorityKeyId: '2.5.29.35',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

// keyUsage bit positions (RFC 5280 §4.2.1.3).
const DIGITAL_SIGNATURE = 0;
const KEY_ENCIPHERMENT = 2;
const KEY_CERT_SIGN = 5;

function toPem(der: Uint8Array, label: string): string {
  const b64 = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

function encodeName(s: SubjectSpec): Buffer {
  const rdn = (oid: string, value: string): Buffer => set(sequence(objectIdentifier(oid), utf8String(value)));
  return sequence(...(s.o ?? []).map((o) => rdn(OID.organization, o)), rdn(OID.commonName, s.cn));
}

/** RFC 5280 §4.2.1.2 method 1: SHA-1 of the subjectPublicKey bits. */
function keyIdOf(spkiDer: Buffer): Buffer {
  const [, bits] = children(readElement(spkiDer).contents);
  return createHash('sha1').update(bits!.contents.subarray(1)).digest();
}

function signatureAlgorithm(key: KeyObject): Buffer {
  if (key.asymmetricKeyType === 'ec') return sequence(objectIdentifier(OID.ecdsaWithSha256));
  if (key.asymmetricKeyType === 'rsa') return sequence(objectIdentifier(OID.sha256WithRsa), nullValue());
  throw new Error(`unsupported signing key type ${key.asymmetricKeyType ?? 'unknown'}`);
}

function extension(oid: string, critical: boolean, value: Buffer): Buffer {
  return sequence(objectIdentifier(oid), ...(critical ? [boolean(true)] : []), octetString(value));
}

function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number));
  if (isIP(ip) !== 6) throw new Error(`not an IP address: ${ip}`);
  // Expand "::" and an embedded IPv4 tail into eight 16-bit groups.
  let text = ip;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -v4[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}

const generateEc = promisify(generateKeyPair);

/** Issues a certificate (self-signed when no issuer is given). */
export async function issue(o: IssueOptions): Promise<Issued> {
  const { privateKey, publicKey } = await generateEc('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const keyId = keyIdOf(spki);
  const notBefore = o.notBefore ?? new Date(Date.now() - 60_000);
  const notAfter = o.notAfter ?? new Date(Date.now() + (o.days ?? 365) * 86_400_000);
  const subject = encodeName(o.subject);
  const extensions: Buffer[] = [];
  if (o.isCa) {
    extensions.push(extension(OID.basicConstraints, true, sequence(boolean(true))));
    extensions.push(extension(OID.keyUsage, true, namedBits([DIGITAL_SIGNATURE, KEY_ENCIPHERMENT, KEY_CERT_SIGN])));
  } else {
    extensions.push(extension(OID.basicConstraints, true, sequence()));
    extensions.push(extension(OID.keyUsage, true, namedBits([DIGITAL_SIGNATURE, KEY_ENCIPHERMENT])));
    const usage = o.usage ?? 'client';
    const ekus: Buffer[] = [];
    if (usage !== 'client') ekus.push(objectIdentifier(OID.serverAuth));
    if (usage !== 'server') ekus.push(objectIdentifier(OID.clientAuth));
    extensions.push(extension(OID.extKeyUsage, false, sequence(...ekus)));
  }
  const sans = [
    ...(o.dnsNames ?? []).map((d) => implicit(2, Buffer.from(d, 'ascii'))),
    ...(o.ipAddresses ?? []).map((ip) => implicit(7, ipBytes(ip))),
  ];
  if (sans.length) extensions.push(extension(OID.subjectAltName, false, sequence(...sans)));
  extensions.push(extension(OID.subjectKeyId, false, octetString(keyId)));
  if (o.issuer) extensions.push(extension(OID.authorityKeyId, false, sequence(implicit(0, o.issuer.keyId))));
  const signer = o.issuer?.privateKey ?? privateKey;
  // A positive 128-bit serial: the top bit cleared, never a leading zero byte.
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const algorithm = signatureAlgorithm(signer);
  const tbs = sequence(
    explicit(0, smallInteger(2)), // v3
    unsignedInteger(serial),
    algorithm,
    o.issuer?.subject ?? subject,
    sequence(time(notBefore), time(notAfter)),
    subject,
    spki,
    explicit(3, sequence(...extensions)),
  );
  const der = sequence(tbs, algorithm, bitString(sign('sha256', tbs, signer)));
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  return { certPem: toPem(der, 'CERTIFICATE'), keyPem, privateKey, subject, keyId };
}

export function createCa(cn: string, days = 3650): Promise<Issued> {
  return issue({ subject: { cn }, isCa: true, days });
}

/** A certificate and key read back (PEM) to sign with: its subject and key identifier come from the DER. */
export function loadIssued(certPem: string, keyPem: string): Promise<Issued> {
  const raw = new X509Certificate(certPem).raw;
  const [tbs] = children(readElement(raw).contents);
  const fields = children(tbs!.contents);
  // version [0] is optional; after it: serial, signature, issuer, validity, subject, subjectPublicKeyInfo, ...
  const at = fields[0]!.tag === 0xa0 ? 1 : 0;
  const subject = Buffer.from(fields[at + 4]!.raw);
  const spki = Buffer.from(fields[at + 5]!.raw);
  let keyId: Buffer | undefined;
  const exts = fields.find((f) => f.tag === 0xa3);
  if (exts) {
    for (const ext of children(readElement(exts.contents).contents)) {
      const [oid, ...rest] = children(ext.contents);
      if (!oid!.raw.equals(objectIdentifier(OID.subjectKeyId))) continue;
      keyId = Buffer.from(readElement(rest.at(-1)!.contents).contents);
    }
  }
  const privateKey = createPrivateKey(keyPem);
  if (!createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).equals(spki)) {
    return Promise.reject(new Error('the private key does not match the certificate'));
  }
  return Promise.resolve({ certPem, keyPem, privateKey, subject, keyId: keyId ?? keyIdOf(spki) });
}
