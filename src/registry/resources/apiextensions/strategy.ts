/**
 * The CustomResourceDefinition strategy (kube's registry/customresourcedefinition/strategy.go):
 * - create: status reset to `{storedVersions: [<storage version>]}`, generation 1, v1 defaults
 *   (conversion strategy None, singular/listKind from kind, webhook service port 443);
 * - update: status kept; the storage version joins status.storedVersions when it is new;
 * - `/status` writes keep spec and most metadata;
 * - validation: src/api/validation/apiextensions.ts plus the schema engine's checks.
 */
import type { KObject } from '../../../machinery/objects.ts';
import type { RegistryStrategy } from '../../strategy.ts';
import { statusStrategy } from '../strategy-kit.ts';
import { validateCrd, validateCrdStatusUpdate, validateCrdUpdate } from '../../../api/validation/apiextensions.ts';
import { crdSchemaErrors } from '../../../apiextensions/schema-bridge.ts';

type J = Record<string, unknown>;
const rec = (v: unknown): J | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as J) : undefined);

/** SetDefaults_CustomResourceDefinition{Spec} and the webhook client config defaults of v1. */
export function defaultCrd(crd: KObject): void {
  const spec = rec(crd['spec']);
  if (!spec) return;
  const names = rec(spec['names']);
  if (names && typeof names['kind'] === 'string' && names['kind']) {
    if (!names['singular']) names['singular'] = names['kind'].toLowerCase();
    if (!names['listKind']) names['listKind'] = `${names['kind']}List`;
  }
  const conv = rec(spec['conversion']);
  if (!conv) spec['conversion'] = { strategy: 'None' };
  else {
    const svc = rec(rec(rec(conv['webhook'])?.['clientConfig'])?.['service']);
    if (svc && svc['port'] === undefined) svc['port'] = 443;
  }
}

function storageVersion(crd: KObject): string | undefined {
  const versions = rec(crd['spec'])?.['versions'];
  if (!Array.isArray(versions)) return undefined;
  const v = versions.map(rec).find((x) => x?.['storage'] === true);
  return typeof v?.['name'] === 'string' ? v['name'] : undefined;
}

export const crdStrategy: RegistryStrategy = statusStrategy({
  status: true,
  generation: true,
  allowUnconditionalUpdate: false,
  initialStatus: (obj) => {
    const sv = storageVersion(obj);
    return { storedVersions: sv ? [sv] : [] };
  },
  onUpdate: (obj) => {
    const sv = storageVersion(obj);
    if (!sv) return;
    const status = rec(obj['status']) ?? {};
    obj['status'] = status;
    const stored = Array.isArray(status['storedVersions']) ? (status['storedVersions'] as string[]) : [];
    if (!stored.includes(sv)) status['storedVersions'] = [...stored, sv];
  },
}, {
  defaults: defaultCrd,
  validate: (obj) => validateCrd(obj, { schemaErrors: crdSchemaErrors(obj, undefined) }),
  validateUpdate: (obj, old, ctx) => {
    if (ctx.subresource === 'status') return validateCrdStatusUpdate(obj);
    return validateCrdUpdate(obj, old, { schemaErrors: crdSchemaErrors(obj, old) });
  },
});
