/**
 * Strict decoding of configuration files: the fields of one object that its kind does not have, named as kube's
 * strict decoder names them (`unknown field "<path>"`). Callers walk their own document shape.
 */
export function collectUnknownFields(o: unknown, known: readonly string[], prefix: string, out: string[]): void {
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return;
  for (const k of Object.keys(o)) if (!known.includes(k)) out.push(`unknown field "${prefix}${k}"`);
}
