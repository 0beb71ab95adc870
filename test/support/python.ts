/**
 * The first python3 that can import the official Kubernetes client: PATH's, then the system one (Debian's
 * python3-kubernetes). Acceptance tests skip with `reason` when none can.
 */
import { spawnSync } from 'node:child_process';

export function findPython(): { bin?: string; reason: string } {
  const tried: string[] = [];
  for (const bin of ['python3', '/usr/bin/python3']) {
    const r = spawnSync(bin, ['-c', 'import kubernetes; print(kubernetes.__version__)'], { encoding: 'utf8', timeout: 30_000 });
    if (r.status === 0) return { bin, reason: '' };
    tried.push(`${bin}: ${(r.stderr || r.error?.message || '').trim().split('\n').at(-1)}`);
  }
  return { reason: `python kubernetes client not importable (${tried.join('; ')})` };
}
