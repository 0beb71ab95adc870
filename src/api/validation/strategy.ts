/**
 * Wiring helper: adds a kind's validators (validateFor) to a Strategy without replacing the strategy's own
 * hooks. The strategy's own validate/validateUpdate run first; ours follow. On update the combined hook also
 * covers the create-time rules, as the generic store calls either validateUpdate or validate, not both.
 */
import type { KObject, Strategy, StrategyContext } from '../types.ts';
import type { FieldError } from '../../endpoints/status.ts';
import { validateFor } from './index.ts';

export function withKindValidation<S extends Strategy>(strategy: S, group: string, kind: string): S {
  const v = validateFor(group, kind);
  if (!v) return strategy;
  const ownValidate = strategy.validate?.bind(strategy);
  const ownUpdate = strategy.validateUpdate?.bind(strategy);
  return {
    ...strategy,
    validate(obj: KObject, ctx: StrategyContext): FieldError[] {
      return [...(ownValidate?.(obj, ctx) ?? []), ...(v.validate?.(obj) ?? [])];
    },
    validateUpdate(obj: KObject, old: KObject, ctx: StrategyContext): FieldError[] {
      const own = ownUpdate ? ownUpdate(obj, old, ctx) : (ownValidate?.(obj, ctx) ?? []);
      return [...own, ...(v.validateUpdate?.(obj, old, { subresource: ctx.subresource }) ?? [])];
    },
  };
}
