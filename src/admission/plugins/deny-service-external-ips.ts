/**
 * DenyServiceExternalIPs (kube's plugin/pkg/admission/network/denyserviceexternalips, off by default): a
 * Service may not get `spec.externalIPs` it did not already have (create or update; removing is allowed).
 */
import { admissionForbidden } from '../errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionPlugin } from '../types.ts';
import { isObj, isResource, specOf, str } from './support.ts';

const ips = (o: unknown): string[] => {
  const v = isObj(o) ? specOf(o as never)['externalIPs'] : undefined;
  return Array.isArray(v) ? v.map(str) : [];
};

export function denyServiceExternalIPsPlugin(): AdmissionPlugin {
  return {
    name: 'DenyServiceExternalIPs',
    operations: operations('CREATE', 'UPDATE'),
    validate(a) {
      if (!isResource(a, '', 'services') || a.subresource !== '' || !isObj(a.object)) return;
      const wanted = ips(a.object);
      if (!wanted.length) return;
      if (a.oldObject) {
        const had = new Set(ips(a.oldObject));
        if (wanted.every((ip) => had.has(ip))) return;
      }
      throw admissionForbidden(a, 'Use of external IPs is denied by admission control');
    },
  };
}

registerPlugin('DenyServiceExternalIPs', denyServiceExternalIPsPlugin);
