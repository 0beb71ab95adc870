/**
 * Dividing the server's seats among priority levels (k8s.io/apiserver pkg/util/flowcontrol/conc_alloc.go and
 * apf_controller.go): each level's nominal limit is ceil(serverLimit × shares / Σshares); it may lend
 * `lendablePercent` of it and borrow up to `borrowingLimitPercent` (unlimited when unset). Every borrowing
 * period the current limits are re-divided: each level gets at least what it cannot lend and what it recently
 * used, and the rest goes out in proportion to recent demand, within each level's bounds.
 */
export interface NominalLimits {
  readonly nominalCL: number;
  /** nominal less what it may lend */
  readonly minCL: number;
  /** nominal plus what it may borrow */
  readonly maxCL: number;
}

export function nominalLimits(serverLimit: number, shares: number, shareSum: number, lendablePercent: number | undefined, borrowingLimitPercent: number | undefined): NominalLimits {
  const nominalCL = shareSum > 0 ? Math.ceil((serverLimit * shares) / shareSum) : 0;
  const lendable = lendablePercent !== undefined ? Math.round((nominalCL * lendablePercent) / 100) : 0;
  const borrowing = borrowingLimitPercent !== undefined ? Math.round((nominalCL * borrowingLimitPercent) / 100) : serverLimit;
  return { nominalCL, minCL: nominalCL - lendable, maxCL: nominalCL + borrowing };
}

export interface AllocItem {
  readonly lowerBound: number;
  readonly upperBound: number;
  readonly target: number;
}

/**
 * Allocations within [lower, upper] summing to `total` (when the bounds allow), each proportional to its target
 * where not clamped: the fair proportion is found by bisection.
 */
export function allocate(total: number, items: readonly AllocItem[]): number[] {
  const clamp = (it: AllocItem, p: number): number => Math.min(it.upperBound, Math.max(it.lowerBound, it.target * p));
  const sumAt = (p: number): number => items.reduce((s, it) => s + clamp(it, p), 0);
  const lowers = items.reduce((s, it) => s + it.lowerBound, 0);
  if (total <= lowers) return items.map((it) => it.lowerBound);
  let hi = 1;
  while (sumAt(hi) < total && hi < 1e12) hi *= 2;
  if (sumAt(hi) < total) return items.map((it) => clamp(it, hi));
  let lo = 0;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (sumAt(mid) < total) lo = mid;
    else hi = mid;
  }
  return items.map((it) => clamp(it, hi));
}
