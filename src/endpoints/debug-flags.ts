/**
 * kube-apiserver's `/debug/flags`: an HTML index, and `PUT /debug/flags/v` with the new klog verbosity as the
 * body (`successfully set klog.logging.verbosity to 5`). Other methods on `/debug/flags/v` get 406. Access is
 * authorized like any non-resource URL (`put` on `/debug/flags/v`: cluster-admin, system:masters).
 */
import type { Endpoint, RequestContext } from '../request/context.ts';
import { respondBytes } from '../request/respond.ts';
import type { Logger } from '../machinery/logging.ts';
import { readBody } from './negotiation/decode.ts';

const INDEX = `<html>
<head>
<title>/debug/flags/</title>
</head>
<body>
/debug/flags/<br>
<br>
flags:<br>
<table>

<tr>v<br>

</table>
<br>
full flags configurable<br>
</body>
</html>
`;

function plain(ctx: RequestContext, code: number, text: string): void {
  respondBytes(ctx, code, 'text/plain', `${text}\n`, { 'X-Content-Type-Options': 'nosniff' });
}

/** klog's Level.Set: a base-10 int32. */
function parseLevel(text: string): number | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n >= -(2 ** 31) && n < 2 ** 31 ? n : undefined;
}

export function createDebugFlagsEndpoint(logger: Logger): Endpoint {
  const serve = async (ctx: RequestContext, p: string): Promise<boolean> => {
    if (p !== '/debug/flags/v') {
      respondBytes(ctx, 200, 'text/html; charset=utf-8', INDEX);
      return true;
    }
    if (ctx.req.method !== 'PUT') {
      plain(ctx, 406, 'unsupported http method');
      return true;
    }
    const body = Buffer.from(await readBody(ctx)).toString('utf8');
    const level = parseLevel(body);
    if (level === undefined) {
      const why = /^[+-]?\d+$/.test(body) ? 'value out of range' : 'invalid syntax';
      plain(ctx, 400, `failed set klog.logging.verbosity ${body}: strconv.ParseInt: parsing ${JSON.stringify(body)}: ${why}`);
      return true;
    }
    logger.setVerbosity(level);
    plain(ctx, 200, `successfully set klog.logging.verbosity to ${body}`);
    return true;
  };
  return (ctx) => {
    const p = ctx.info.path;
    return ctx.info.isResourceRequest || !(p === '/debug/flags' || p.startsWith('/debug/flags/')) ? false : serve(ctx, p);
  };
}
