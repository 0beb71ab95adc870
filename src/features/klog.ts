/**
 * klog's text header, so warnings read as kube-apiserver prints them:
 * `W1122 02:41:58.123456   12345 feature_gate.go:387] message` (severity, MMDD, UTC time with µs, pid, source).
 */
export function klogLine(severity: 'I' | 'W' | 'E', source: string, message: string, now: Date = new Date(), pid: number = process.pid): string {
  const p2 = (n: number) => String(n).padStart(2, '0');
  const stamp = `${p2(now.getUTCMonth() + 1)}${p2(now.getUTCDate())} ${p2(now.getUTCHours())}:${p2(now.getUTCMinutes())}:${p2(now.getUTCSeconds())}.${String(now.getUTCMilliseconds() * 1000).padStart(6, '0')}`;
  return `${severity}${stamp} ${String(pid).padStart(7, ' ')} ${source}] ${message}`;
}
