/**
 * klog's text header, so warnings read as kube-apiserver prints them:
 * `W1122 02:41:58.123456   12345 feature_gate.go:387] message` (severity, MMDD, UTC time with µs, pid, source).
 * The header itself lives with the logger (src/machinery/logging.ts).
 */
import { klogHeader } from '../machinery/logging.ts';

export function klogLine(severity: 'I' | 'W' | 'E', source: string, message: string, now: Date = new Date(), pid: number = process.pid): string {
  return klogHeader(severity, source, now, pid).slice(0, -1) + ' ' + message;
}
