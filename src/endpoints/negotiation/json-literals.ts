/**
 * Go's decoder judges a number by its literal: `1.0` or `1e3` do not fit an integer field although their
 * value is integral, and its errors quote the literal (`number 1e3`). JSON.parse keeps only the value, so for
 * bodies with such literals the type check walks a second parse in which every number written with a
 * fraction or exponent, or beyond double precision, is a `NumberLiteral` (other integers stay numbers).
 * Input must be valid JSON (callers scan it first); invalid input throws a SyntaxError.
 */

/** A JSON number written with a fraction or an exponent, as sent. */
export class NumberLiteral {
  constructor(readonly text: string, readonly value: number) {}
}

/** Whether the text may hold a number literal with a fraction, an exponent or 16+ digits (cheap, may say yes wrongly). */
export function mayHaveFractionLiterals(text: string): boolean {
  // Values follow `":`, array items `,` or `[`; image tags such as "nginx:1.25" do not look like that.
  return /(?:"\s*:|[,[])\s*-?[0-9]+(?:\.|[eE])|[0-9]{16}/.test(text);
}

/** Parses valid JSON, numbers with a fraction or exponent becoming NumberLiteral. */
export function parseWithLiterals(text: string): unknown {
  let i = 0;
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      i++;
    }
  };
  const value = (depth: number): unknown => {
    if (depth > 10_000) throw new SyntaxError('too deep');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') { i++; return out; }
      for (;;) {
        ws();
        const key = str();
        ws();
        i++; // ':'
        const v = value(depth + 1);
        // Go keeps the last duplicate, as JSON.parse does.
        Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i++] === '}') return out;
      }
    }
    if (c === '[') {
      i++;
      const out: unknown[] = [];
      ws();
      if (text[i] === ']') { i++; return out; }
      for (;;) {
        out.push(value(depth + 1));
        ws();
        if (text[i++] === ']') return out;
      }
    }
    if (c === '"') return str();
    if (text.startsWith('true', i)) { i += 4; return true; }
    if (text.startsWith('false', i)) { i += 5; return false; }
    if (text.startsWith('null', i)) { i += 4; return null; }
    const m = /-?\d+(\.\d+)?([eE][-+]?\d+)?/y;
    m.lastIndex = i;
    const hit = m.exec(text);
    if (!hit) throw new SyntaxError(`unexpected character at ${i}`);
    i += hit[0].length;
    const n = Number(hit[0]);
    // Integers beyond double precision keep their text too (Go's range check reads it).
    return hit[1] !== undefined || hit[2] !== undefined || String(n) !== hit[0] ? new NumberLiteral(hit[0], n) : n;
  };
  const str = (): string => {
    const start = i;
    i++; // opening quote
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') i += 2;
      else if (c === '"') break;
      else i++;
    }
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const v = value(0);
  return v;
}
