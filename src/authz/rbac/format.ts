/** Go's fmt %q for the strings RBAC messages print (kube formats them in Go; clients see this text). */

/** `%q` of a string: printable ASCII as is, quotes and backslashes escaped, controls as \n, \t, \x1f… */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** `%q` of a []string: `["a" "b"]`; an empty or nil slice prints `[]`. */
export function goQuoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}
