/**
 * Issuing certificates with @peculiar/x509 and Web Crypto keys (ECDSA P-256: fast to generate, accepted by
 * kubectl and client-go). Used for the zero-config PKI (pki.ts) and by tests that need their own CAs.
 */
import 'reflect-metadata';
import { webcrypto, randomBytes, createPrivateKey, createPublicKey } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as never);

type CryptoKeyPair = webcrypto.CryptoKeyPair;

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN_EC = { name: 'ECDSA', hash: 'SHA-256' } as const;
const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

/** A certificate and its private key, as PEM, plus the parsed forms for signing. */
export interface Issued {
  readonly certPem: string;
  readonly keyPem: string;
  readonly cert: x509.X509Certificate;
  readonly keys: CryptoKeyPair;
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

function name(s: SubjectSpec): x509.JsonName {
  const n: x509.JsonName = [];
  for (const o of s.o ?? []) n.push({ O: [o] });
  n.push({ CN: [s.cn] });
  return n;
}

function toPem(der: ArrayBuffer, label: string): string {
  const b64 = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

function signingAlgorithm(keys: CryptoKeyPair): typeof SIGN_EC | typeof RSA {
  return keys.privateKey.algorithm.name === 'ECDSA' ? SIGN_EC : RSA;
}

export async function generateKeys(): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(EC, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
}

/** Imports a PEM private key (PKCS#8, SEC1 EC or PKCS#1 RSA) with its public half. */
export async function importKeyPair(keyPem: string): Promise<CryptoKeyPair> {
  const ko = createPrivateKey(keyPem);
  const pkcs8 = ko.export({ type: 'pkcs8', format: 'der' });
  const spki = createPublicKey(ko).export({ type: 'spki', format: 'der' });
  const alg = ko.asymmetricKeyType === 'ec' ? { name: 'ECDSA', namedCurve: (ko.asymmetricKeyDetails?.namedCurve === 'secp384r1' ? 'P-384' : 'P-256') }
    : ko.asymmetricKeyType === 'rsa' ? RSA : undefined;
  if (!alg) throw new Error(`unsupported key type ${ko.asymmetricKeyType ?? 'unknown'}`);
  const privateKey = await webcrypto.subtle.importKey('pkcs8', pkcs8, alg, true, ['sign']);
  const publicKey = await webcrypto.subtle.importKey('spki', spki, alg, true, ['verify']);
  return { privateKey, publicKey } as CryptoKeyPair;
}

export async function loadIssued(certPem: string, keyPem: string): Promise<Issued> {
  return { certPem, keyPem, cert: new x509.X509Certificate(certPem), keys: await importKeyPair(keyPem) };
}

/** Issues a certificate (self-signed when no issuer is given). */
export async function issue(o: IssueOptions): Promise<Issued> {
  const keys = await generateKeys();
  const notBefore = o.notBefore ?? new Date(Date.now() - 60_000);
  const notAfter = o.notAfter ?? new Date(Date.now() + (o.days ?? 365) * 86_400_000);
  const extensions: x509.Extension[] = [];
  if (o.isCa) {
    extensions.push(new x509.BasicConstraintsExtension(true, undefined, true));
    extensions.push(new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true));
  } else {
    extensions.push(new x509.BasicConstraintsExtension(false, undefined, true));
    extensions.push(new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true));
    const usage = o.usage ?? 'client';
    const ekus: string[] = [];
    if (usage !== 'client') ekus.push(x509.ExtendedKeyUsage.serverAuth);
    if (usage !== 'server') ekus.push(x509.ExtendedKeyUsage.clientAuth);
    extensions.push(new x509.ExtendedKeyUsageExtension(ekus));
  }
  const sans: x509.JsonGeneralName[] = [
    ...(o.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(o.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  if (sans.length) extensions.push(new x509.SubjectAlternativeNameExtension(sans));
  extensions.push(await x509.SubjectKeyIdentifierExtension.create(keys.publicKey as never));
  if (o.issuer) extensions.push(await x509.AuthorityKeyIdentifierExtension.create(o.issuer.cert));
  const serialNumber = randomBytes(16).toString('hex').replace(/^[89a-f]/, '1');
  const cert = o.issuer
    ? await x509.X509CertificateGenerator.create({
      serialNumber, subject: name(o.subject), issuer: o.issuer.cert.subject, notBefore, notAfter, extensions,
      publicKey: keys.publicKey as never, signingKey: o.issuer.keys.privateKey as never, signingAlgorithm: signingAlgorithm(o.issuer.keys),
    })
    : await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber, name: name(o.subject), notBefore, notAfter, extensions, keys: keys as never, signingAlgorithm: SIGN_EC,
    });
  const keyPem = toPem(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
  return { certPem: cert.toString('pem') + '\n', keyPem, cert, keys };
}

export function createCa(cn: string, days = 3650): Promise<Issued> {
  return issue({ subject: { cn }, isCa: true, days });
}
