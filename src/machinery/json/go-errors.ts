/**
 * The text of the first syntax error Go's encoding/json reports for a document, for messages clients see
 * verbatim (e.g. `invalid continue token: continue key is not valid: invalid character '\u0081' looking for
 * beginning of value`). Input is treated as bytes (latin1 string), as Go's scanner does.
 */

/** Go's quoteChar: how a byte appears inside `invalid character '…'`. */
export function goQuoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  const esc: Record<number, string> = { 7: '\\a', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t', 11: '\\v', 0x5c: '\\\\' };
  if (esc[c]) return `'${esc[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

class SyntaxErr extends Error {}

const inv = (c: number, ctx: string) => new SyntaxErr(`invalid character ${goQuoteChar(c)} ${ctx}`);
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** Returns Go's error text for `text`, or '' when the document is valid JSON. */
export function goJsonSyntaxError(text: string): string {
  const s = text;
  let i = 0;
  const at = () => (i < s.length ? s.charCodeAt(i) : -1);
  const eof = () => new SyntaxErr('unexpected end of JSON input');
  const skip = () => { while (i < s.length && isSpace(s.charCodeAt(i))) i++; };

  const literal = (word: string) => {
    for (let k = 1; k < word.length; k++) {
      i++;
      const c = at();
      if (c < 0) throw eof();
      if (c !== word.charCodeAt(k)) throw inv(c, `in literal ${word} (expecting '${word[k]}')`);
    }
    i++;
  };

  const number = () => {
    if (at() === 0x2d) {
      i++;
      const c = at();
      if (c < 0) throw eof();
      if (!isDigit(c)) throw inv(c, 'in numeric literal');
    }
    if (at() === 0x30) i++;
    else while (isDigit(at())) i++;
    if (at() === 0x2e) {
      i++;
      const c = at();
      if (c < 0) throw eof();
      if (!isDigit(c)) throw inv(c, 'after decimal point in numeric literal');
      while (isDigit(at())) i++;
    }
    if (at() === 0x65 || at() === 0x45) {
      i++;
      if (at() === 0x2b || at() === 0x2d) i++;
      const c = at();
      if (c < 0) throw eof();
      if (!isDigit(c)) throw inv(c, 'in exponent of numeric literal');
      while (isDigit(at())) i++;
    }
  };

  const string = () => {
    i++; // opening quote
    for (;;) {
      const c = at();
      if (c < 0) throw eof();
      if (c === 0x22) { i++; return; }
      if (c < 0x20) throw inv(c, 'in string literal');
      if (c === 0x5c) {
        i++;
        const e = at();
        if (e < 0) throw eof();
        if ('"\\/bfnrt'.includes(String.fromCharCode(e))) { i++; continue; }
        if (e === 0x75) {
          i++;
          for (let k = 0; k < 4; k++) {
            const h = at();
            if (h < 0) throw eof();
            if (!/[0-9a-fA-F]/.test(String.fromCharCode(h))) throw inv(h, 'in \\u hexadecimal character escape');
            i++;
          }
          continue;
        }
        throw inv(e, 'in string escape code');
      }
      i++;
    }
  };

  const value = (): void => {
    skip();
    const c = at();
    if (c < 0) throw eof();
    if (c === 0x7b) return object();
    if (c === 0x5b) return array();
    if (c === 0x22) return string();
    if (c === 0x2d || isDigit(c)) return number();
    if (c === 0x74) return literal('true');
    if (c === 0x66) return literal('false');
    if (c === 0x6e) return literal('null');
    throw inv(c, 'looking for beginning of value');
  };

  const object = () => {
    i++;
    skip();
    if (at() === 0x7d) { i++; return; }
    for (;;) {
      skip();
      const c = at();
      if (c < 0) throw eof();
      if (c !== 0x22) throw inv(c, 'looking for beginning of object key string');
      string();
      skip();
      const colon = at();
      if (colon < 0) throw eof();
      if (colon !== 0x3a) throw inv(colon, 'after object key');
      i++;
      value();
      skip();
      const n = at();
      if (n < 0) throw eof();
      if (n === 0x2c) { i++; continue; }
      if (n === 0x7d) { i++; return; }
      throw inv(n, 'after object key:value pair');
    }
  };

  const array = () => {
    i++;
    skip();
    if (at() === 0x5d) { i++; return; }
    for (;;) {
      value();
      skip();
      const n = at();
      if (n < 0) throw eof();
      if (n === 0x2c) { i++; continue; }
      if (n === 0x5d) { i++; return; }
      throw inv(n, 'after array element');
    }
  };

  try {
    value();
    skip();
    if (i < s.length) throw inv(s.charCodeAt(i), 'after top-level value');
    return '';
  } catch (e) {
    if (e instanceof SyntaxErr) return e.message;
    throw e;
  }
}
