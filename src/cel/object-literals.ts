/**
 * CEL object construction (`Object{spec: Object.spec{replicas: 3}}`, `JSONPatch{op: "add", …}`) for the
 * admission policy mutations: cel-js has no message construction syntax, so such literals are rewritten into
 * map literals with dyn values (`{"spec": dyn({"replicas": dyn(3)})}`) before compiling. String literals are
 * left alone. Used where MutatingAdmissionPolicy expressions are compiled: at admission and when a policy is
 * written.
 */

/** Rewrites CEL message literals (`A.b{x: 1}`) into map literals with dyn values; strings are left alone. */
export function rewriteObjectLiterals(src: string): string {
  let out = '';
  let i = 0;
  // Each open bracket: a struct literal (state key/value) or a plain bracket.
  const stack: Array<{ struct: boolean; state: 'key' | 'value' }> = [];
  const top = () => stack[stack.length - 1];
  const identStart = /[A-Za-z_]/;
  const ident = /[A-Za-z0-9_]/;
  while (i < src.length) {
    const c = src[i]!;
    // String literals (with r/b prefixes, single, double and triple quotes).
    const m = /^([rRbB]{0,2})('''|"""|'|")/.exec(src.slice(i));
    if (m && (m[1] === '' || !ident.test(src[i - 1] ?? ''))) {
      const raw = /r/i.test(m[1]!);
      const q = m[2]!;
      let j = i + m[0].length;
      while (j < src.length && !src.startsWith(q, j)) j += !raw && src[j] === '\\' ? 2 : 1;
      j += q.length;
      out += src.slice(i, j);
      i = j;
      continue;
    }
    const t = top();
    if (t?.struct && t.state === 'key') {
      if (/\s/.test(c)) { out += c; i++; continue; }
      if (c === '}') { out += c; stack.pop(); i++; continue; }
      const km = /^(\??)([A-Za-z_][A-Za-z0-9_]*)\s*:/.exec(src.slice(i));
      if (km) {
        out += `"${km[2]}": dyn(`;
        t.state = 'value';
        i += km[0].length;
        continue;
      }
    }
    if (identStart.test(c) && !ident.test(src[i - 1] ?? '') && src[i - 1] !== '.') {
      const cm = /^[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*\s*\{/.exec(src.slice(i));
      if (cm) {
        out += '{';
        stack.push({ struct: true, state: 'key' });
        i += cm[0].length;
        continue;
      }
      const im = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))!;
      out += im[0];
      i += im[0].length;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') {
      stack.push({ struct: false, state: 'value' });
      out += c;
      i++;
      continue;
    }
    if (t?.struct && t.state === 'value' && (c === ',' || c === '}')) {
      out += ')';
      if (c === ',') t.state = 'key';
      else stack.pop();
      out += c;
      i++;
      continue;
    }
    if (c === ')' || c === ']' || c === '}') stack.pop();
    out += c;
    i++;
  }
  return out;
}
