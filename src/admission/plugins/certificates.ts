/**
 * The certificates plugins (kube's plugin/pkg/admission/certificates):
 * - CertificateApproval: writing `certificatesigningrequests/approval` needs `approve` on `signers` (group
 *   certificates.k8s.io) named by the CSR's signerName, or by its domain with `/*`;
 * - CertificateSigning: changing `status.certificate` or the conditions through `/status` needs `sign` on the
 *   signer the same way;
 * - ClusterTrustBundleAttest: a ClusterTrustBundle with a signerName needs `attest` on it (its signerName may
 *   not change; an update that changes nothing needs no permission); active only with the ClusterTrustBundle
 *   gate, whose API Keelson serves when it is on;
 * - CertificateSubjectRestriction: a CSR for `kubernetes.io/kube-apiserver-client` may not ask for the
 *   `system:masters` organization.
 */
import { createRequire } from 'node:module';
import type * as X509 from '@peculiar/x509';
import type { UserInfo } from '../../machinery/objects.ts';
import { admissionForbidden } from '../errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionAttributes, type AdmissionPlugin, type PluginContext } from '../types.ts';
import { isObj, isResource, specOf, str } from './support.ts';

const CERTS = 'certificates.k8s.io';

/** IsAuthorizedForSignerName: `verb` on signers/<signerName>, else on signers/<domain>/*. */
export async function authorizedForSigner(ctx: PluginContext, user: UserInfo, verb: string, signerName: string): Promise<boolean> {
  const ask = async (name: string) => {
    try {
      const d = await ctx.authorizer().authorize({
        user, verb, isResourceRequest: true, path: '', apiGroup: CERTS, apiVersion: '*', namespace: '', resource: 'signers', subresource: '', name,
      });
      return d.kind === 'allow';
    } catch {
      return false;
    }
  };
  if (await ask(signerName)) return true;
  return ask(`${signerName.split('/')[0]!}/*`);
}

const isCsr = (a: AdmissionAttributes) => isResource(a, CERTS, 'certificatesigningrequests');

export function certificateApprovalPlugin(ctx: PluginContext): AdmissionPlugin {
  return {
    name: 'CertificateApproval',
    operations: operations('UPDATE'),
    async validate(a) {
      if (a.subresource !== 'approval' || !isCsr(a)) return;
      if (!isObj(a.object)) throw admissionForbidden(a, 'expected type CertificateSigningRequest, got: <nil>');
      const signer = str(specOf(a.object)['signerName']);
      if (!await authorizedForSigner(ctx, a.user, 'approve', signer)) {
        throw admissionForbidden(a, `user not permitted to approve requests with signerName ${JSON.stringify(signer)}`);
      }
    },
  };
}

export function certificateSigningPlugin(ctx: PluginContext): AdmissionPlugin {
  return {
    name: 'CertificateSigning',
    operations: operations('UPDATE'),
    async validate(a) {
      if (a.subresource !== 'status' || !isCsr(a)) return;
      if (!isObj(a.oldObject) || !isObj(a.object)) throw admissionForbidden(a, 'expected type CertificateSigningRequest, got: <nil>');
      const status = (o: unknown) => (isObj(o) && isObj(o['status']) ? o['status'] : {});
      const before = status(a.oldObject);
      const after = status(a.object);
      // Only a change of the certificate or of the conditions needs the permission.
      if (str(before['certificate']) === str(after['certificate'])
        && JSON.stringify(before['conditions'] ?? []) === JSON.stringify(after['conditions'] ?? [])) return;
      const signer = str(specOf(a.oldObject)['signerName']);
      if (!await authorizedForSigner(ctx, a.user, 'sign', signer)) {
        throw admissionForbidden(a, `user not permitted to sign requests with signerName ${JSON.stringify(signer)}`);
      }
    },
  };
}

export function clusterTrustBundleAttestPlugin(ctx: PluginContext): AdmissionPlugin {
  const enabled = ctx.featureEnabled('ClusterTrustBundle');
  return {
    name: 'ClusterTrustBundleAttest',
    operations: operations('CREATE', 'UPDATE'),
    async validate(a) {
      if (!enabled || !isResource(a, CERTS, 'clustertrustbundles')) return;
      if (!isObj(a.object)) throw admissionForbidden(a, 'expected type ClusterTrustBundle, got: <nil>');
      const signer = str(specOf(a.object)['signerName']);
      if (a.operation === 'UPDATE') {
        if (!isObj(a.oldObject)) throw admissionForbidden(a, 'expected type ClusterTrustBundle, got: <nil>');
        if (str(specOf(a.oldObject)['signerName']) !== signer) throw admissionForbidden(a, 'changing signerName is forbidden');
      }
      if (!signer) return;
      // An update that changes nothing (storage migration, garbage collection) needs no attest permission.
      if (a.operation === 'UPDATE' && canonicalJson(a.object) === canonicalJson(a.oldObject)) return;
      if (!await authorizedForSigner(ctx, a.user, 'attest', signer)) {
        throw admissionForbidden(a, `user not permitted to attest for signerName ${JSON.stringify(signer)}`);
      }
    },
  };
}

/** JSON with object keys sorted: equal for semantically equal objects. */
const canonicalJson = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (isObj(x) ? Object.fromEntries(Object.entries(x).sort(([p], [q]) => (p < q ? -1 : 1))) : x));

let x509Module: typeof X509 | undefined;
function x509(): typeof X509 {
  if (!x509Module) {
    const load = createRequire(import.meta.url);
    load('reflect-metadata');
    x509Module = load('@peculiar/x509') as typeof X509;
  }
  return x509Module;
}

/** The subject of a PEM CERTIFICATE REQUEST given as base64 (the wire form of spec.request). */
export function csrSubject(request: unknown): { commonName: string; organizations: string[] } {
  const pem = Buffer.from(str(request), 'base64').toString('latin1');
  const m = /-----BEGIN CERTIFICATE REQUEST-----([\s\S]*?)-----END CERTIFICATE REQUEST-----/.exec(pem);
  if (!m) throw new Error('PEM block type must be CERTIFICATE REQUEST');
  const req = new (x509().Pkcs10CertificateRequest)(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64'));
  const name = req.subjectName;
  return { commonName: name.getField('CN')[0] ?? '', organizations: name.getField('O') };
}

export function certificateSubjectRestrictionPlugin(): AdmissionPlugin {
  return {
    name: 'CertificateSubjectRestriction',
    operations: operations('CREATE'),
    validate(a) {
      if (!isCsr(a) || a.subresource !== '') return;
      if (!isObj(a.object)) throw admissionForbidden(a, 'expected type CertificateSigningRequest, got: <nil>');
      const spec = specOf(a.object);
      const signer = str(spec['signerName']);
      if (signer !== 'kubernetes.io/kube-apiserver-client') return;
      let orgs: string[];
      try {
        orgs = csrSubject(spec['request']).organizations;
      } catch (e) {
        throw admissionForbidden(a, `failed to parse CSR: ${(e as Error).message}`);
      }
      if (orgs.includes('system:masters')) throw admissionForbidden(a, `use of ${signer} signer with system:masters group is not allowed`);
    },
  };
}

registerPlugin('CertificateApproval', certificateApprovalPlugin);
registerPlugin('CertificateSigning', certificateSigningPlugin);
registerPlugin('ClusterTrustBundleAttest', clusterTrustBundleAttestPlugin);
registerPlugin('CertificateSubjectRestriction', certificateSubjectRestrictionPlugin);
