/**
 * /livez, /readyz, /healthz as kube-apiserver's healthz package serves them:
 *   200 `ok`; with `?verbose` one `[+]<check> ok` line per check then `<name> check passed`;
 *   `?exclude=<check>` (repeatable) → `[+]<check> excluded: ok`, unknown names → a `warn:` line;
 *   any failure → 500 with every line (`[-]<check> failed: reason withheld`) and `<name> check failed`;
 *   /livez/<check> → `ok` or 500 `internal server error: <reason>`.
 * Within `--livez-grace-period` of start, failing /livez checks are reported healthy (the server is booting).
 */
import type { Endpoint, RequestContext } from '../../request/context.ts';
import { respondBytes } from '../../request/respond.ts';
import type { HealthCheck } from './checks.ts';

export interface HealthEndpointOptions {
  readonly livez: readonly HealthCheck[];
  readonly readyz: readonly HealthCheck[];
  readonly healthz: readonly HealthCheck[];
  readonly livezGracePeriodMs?: number;
  /** When the server started (ms since epoch), for the grace period. */
  readonly startedAt?: number;
  readonly now?: () => number;
  /** Failure details go to the log, never to the (public) response. */
  readonly log?: (line: string) => void;
}

const TEXT = 'text/plain; charset=utf-8';
const NOSNIFF = { 'X-Content-Type-Options': 'nosniff' };

async function run(c: HealthCheck): Promise<Error | undefined> {
  try {
    await c.check();
    return undefined;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

export function createHealthEndpoint(o: HealthEndpointOptions): Endpoint {
  const now = o.now ?? Date.now;
  const startedAt = o.startedAt ?? now();
  const grace = o.livezGracePeriodMs ?? 0;
  const inGrace = (): boolean => grace > 0 && now() - startedAt < grace;
  const groups: Record<string, readonly HealthCheck[]> = { livez: o.livez, readyz: o.readyz, healthz: o.healthz };

  const check = async (group: string, c: HealthCheck): Promise<Error | undefined> => {
    const err = await run(c);
    return err && group === 'livez' && c.name !== 'ping' && inGrace() ? undefined : err;
  };

  const root = async (ctx: RequestContext, group: string, checks: readonly HealthCheck[]): Promise<void> => {
    const excluded = new Set(ctx.query.getAll('exclude'));
    const unknown = new Set(excluded);
    const results = await Promise.all(checks.map((c) => (excluded.has(c.name) ? Promise.resolve('excluded' as const) : check(group, c))));
    let out = '';
    const failed: string[] = [];
    checks.forEach((c, i) => {
      const r = results[i];
      if (r === 'excluded') {
        unknown.delete(c.name);
        out += `[+]${c.name} excluded: ok\n`;
      } else if (r) {
        out += `[-]${c.name} failed: reason withheld\n`;
        failed.push(`[-]${c.name} failed: ${r.message}`);
      } else out += `[+]${c.name} ok\n`;
    });
    if (unknown.size) out += `warn: some health checks cannot be excluded: no matches for ${[...unknown].sort().map((n) => JSON.stringify(n)).join(',')}\n`;
    if (failed.length) {
      // Unfinished post-start hooks are the normal state while booting: not worth a log line.
      const worth = failed.filter((l) => !l.endsWith(': not finished'));
      if (worth.length) o.log?.(`${group} check failed:\n${worth.join('\n')}`);
      respondBytes(ctx, 500, TEXT, `${out}${group} check failed\n`, NOSNIFF);
      return;
    }
    const verbose = ctx.query.has('verbose');
    respondBytes(ctx, 200, TEXT, verbose ? `${out}${group} check passed\n` : 'ok', NOSNIFF);
  };

  const serve = async (ctx: RequestContext, m: RegExpExecArray): Promise<boolean> => {
    const group = m[1]!;
    const checks = groups[group]!;
    if (m[2] === undefined) {
      await root(ctx, group, checks);
      return true;
    }
    const c = checks.find((x) => x.name === m[2]);
    if (!c) return false;
    const err = await check(group, c);
    if (err) respondBytes(ctx, 500, TEXT, `internal server error: ${err.message}\n`, NOSNIFF);
    else respondBytes(ctx, 200, TEXT, 'ok', NOSNIFF);
    return true;
  };
  return (ctx) => {
    const m = ctx.info.isResourceRequest ? null : /^\/(livez|readyz|healthz)(?:\/(.+))?$/.exec(ctx.info.path);
    return m ? serve(ctx, m) : false;
  };
}
