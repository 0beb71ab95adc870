/** API version names (`v1`, `v2beta1`, `v1alpha3`) and the priority kube gives them. */
const VERSION_RE = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * kube's version.CompareKubeAwareVersionStrings: GA > beta > alpha, higher majors first, then higher
 * minor; versions not in the kube format sort after, alphabetically. Negative when `a` comes first.
 */
export function compareKubeVersions(a: string, b: string): number {
  const ma = VERSION_RE.exec(a);
  const mb = VERSION_RE.exec(b);
  if (!ma || !mb) {
    if (ma) return -1;
    if (mb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const rank = (m: RegExpExecArray) => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  if (rank(ma) !== rank(mb)) return rank(mb) - rank(ma);
  if (Number(ma[1]) !== Number(mb[1])) return Number(mb[1]) - Number(ma[1]);
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}
