/**
 * CertificateSigningRequests (kube's pkg/registry/certificates/certificates/strategy.go): the requesting
 * user is recorded in the spec on create (callers cannot claim another identity); `/approval` changes only
 * the approval conditions; `/status` only the status.
 */
import type { KObject } from '../../../machinery/objects.ts';
import type { StrategyContext } from '../../../api/types.ts';
import type { RegistryStrategy } from '../../strategy.ts';
import { keepAllButStatus, statusStrategy } from '../strategy-kit.ts';

type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);

function recordRequester(obj: KObject, ctx: StrategyContext): void {
  const spec = isObj(obj['spec']) ? obj['spec'] : (obj['spec'] = {} as J);
  const s = spec as J;
  delete s['username'];
  delete s['uid'];
  delete s['groups'];
  delete s['extra'];
  const u = ctx.user;
  if (!u) return;
  if (u.username) s['username'] = u.username;
  if (u.uid) s['uid'] = u.uid;
  if (u.groups.length) s['groups'] = [...u.groups];
  if (u.extra && Object.keys(u.extra).length) s['extra'] = structuredClone(u.extra);
}

const base = statusStrategy({ status: true, onCreate: recordRequester });

export const csrStrategy: RegistryStrategy = {
  ...base,
  prepareForUpdate(obj, old, ctx) {
    if (ctx.subresource === 'approval') {
      // Only status.conditions change; the rest of the status and everything else stays as stored.
      const conditions = isObj(obj['status']) ? obj['status']['conditions'] : undefined;
      keepAllButStatus(obj, old);
      const status: J = isObj(old['status']) ? structuredClone(old['status']) : {};
      if (conditions === undefined) delete status['conditions'];
      else status['conditions'] = conditions;
      obj['status'] = status;
      return;
    }
    base.prepareForUpdate?.(obj, old, ctx);
  },
};
