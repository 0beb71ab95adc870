/**
 * A single-pass JSON scanner that does what `JSON.parse` cannot: it reports syntax errors in Go's
 * encoding/json wording (kube-apiserver puts them into 400 messages clients show) and finds the "strict
 * decoding" problems kube reports per `fieldValidation`: duplicate keys anywhere (`duplicate field "data.a"`)
 * and unknown keys where we know the schema — for now ObjectMeta (`unknown field "metadata.foo"`).
 * Paths follow sigs.k8s.io/json: dotted keys, `[i]` for array items.
 *
 * It does not build values (JSON.parse does that, faster); it runs once per request body.
 */

/** ObjectMeta's JSON fields (k8s.io/apimachinery/pkg/apis/meta/v1 ObjectMeta). */
import { goQuoteChar } from './go-errors.ts';

/** What the scanner knows about a JSON value's shape (see field-schema.ts for built-in kinds). */
export type SchemaNode =
  | { readonly kind: 'any' }
  | { readonly kind: 'object'; field(key: string): SchemaNode | undefined }
  | { readonly kind: 'map'; readonly values: SchemaNode }
  | { readonly kind: 'array'; readonly items: SchemaNode };

export const ANY: SchemaNode = { kind: 'any' };

const OBJECT_META_FIELDS = new Set([
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers',
  'managedFields',
]);

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

export interface ScanResult {
  /** Strict decoding problems in document order: `duplicate field "x"`, `unknown field "metadata.y"`. */
  readonly strict: string[];
}

export interface ScanOptions {
  /** Check ObjectMeta keys under top-level `metadata` (objects of API kinds). */
  readonly objectMeta?: boolean;
  /**
   * The kind's top-level field names when known (besides apiVersion, kind, metadata): other top-level keys
   * are reported as unknown. Until the catalog carries schemas, resources may leave this out.
   */
  readonly topLevelFields?: ReadonlySet<string>;
  /**
   * The kind's full field structure (built-in kinds): unknown keys are reported at any depth, and the two
   * options above are then unnecessary.
   */
  readonly schema?: SchemaNode;
}

const TYPE_META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Go's quoteChar, as encoding/json shows the offending character: Go's scanner works on bytes, so a
 * non-ASCII character shows as its first UTF-8 byte read as a code point (`é` → `'Ã'`).
 */
function quoteChar(text: string, i: number): string {
  const cp = text.codePointAt(i) ?? 0;
  const byte = cp < 0x80 ? cp : (Buffer.from(String.fromCodePoint(cp))[0] ?? 0);
  return goQuoteChar(byte);
}

const WS = new Set([' ', '\t', '\n', '\r']);
const MAX_DEPTH = 2000;

/** Throws JsonSyntaxError with Go's message on invalid JSON; otherwise returns the strict findings. */
export function scanJson(text: string, opts: ScanOptions = {}): ScanResult {
  const strict: string[] = [];
  let i = 0;
  const n = text.length;

  const fail = (context: string): never => {
    if (i >= n) throw new JsonSyntaxError('unexpected end of JSON input');
    throw new JsonSyntaxError(`invalid character ${quoteChar(text, i)} ${context}`);
  };
  const skipWs = () => {
    while (i < n && WS.has(text[i] as string)) i++;
  };

  const scanString = (): string => {
    // at opening quote
    const start = i;
    i++;
    let escaped = false;
    while (true) {
      if (i >= n) fail('in string literal');
      const c = text[i] as string;
      if (c === '"') {
        i++;
        break;
      }
      if (c === '\\') {
        escaped = true;
        i++;
        if (i >= n) fail('in string escape code');
        const e = text[i] as string;
        if ('"\\/bfnrt'.includes(e)) {
          i++;
        } else if (e === 'u') {
          i++;
          for (let k = 0; k < 4; k++) {
            if (i >= n || !/[0-9a-fA-F]/.test(text[i] as string)) fail('in \\u hexadecimal character escape');
            i++;
          }
        } else {
          fail('in string escape code');
        }
        continue;
      }
      if (c.charCodeAt(0) < 0x20) fail('in string literal');
      i++;
    }
    const raw = text.slice(start + 1, i - 1);
    return escaped ? (JSON.parse(text.slice(start, i)) as string) : raw;
  };

  const scanLiteral = (word: string) => {
    for (let k = 0; k < word.length; k++) {
      if (i >= n) fail('');
      if (text[i] !== word[k]) fail(`in literal ${word} (expecting ${quoteChar(word, k)})`);
      i++;
    }
  };

  const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

  const scanNumber = () => {
    if (text[i] === '-') {
      i++;
      if (i >= n) fail('');
      if (!isDigit(text[i])) fail('in numeric literal');
    }
    if (text[i] === '0') {
      i++;
    } else {
      while (isDigit(text[i])) i++;
    }
    if (text[i] === '.') {
      i++;
      if (i >= n) fail('');
      if (!isDigit(text[i])) fail('after decimal point in numeric literal');
      while (isDigit(text[i])) i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (i >= n) fail('');
      if (!isDigit(text[i])) fail('in exponent of numeric literal');
      while (isDigit(text[i])) i++;
    }
  };

  const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

  const scanValue = (path: string, depth: number, node: SchemaNode): void => {
    skipWs();
    // Go allows 10,000 levels; 2,000 keeps this recursion well inside the stack (API objects nest < 100).
    if (depth >= MAX_DEPTH && (text[i] === '{' || text[i] === '[')) fail('exceeded max depth');
    if (i >= n) fail('');
    const c = text[i] as string;
    if (c === '{') {
      i++;
      skipWs();
      if (text[i] === '}') {
        i++;
        return;
      }
      const seen = new Set<string>();
      const checkMeta = !opts.schema && opts.objectMeta === true && path === 'metadata';
      const checkTop = !opts.schema && depth === 0 && opts.topLevelFields !== undefined;
      while (true) {
        skipWs();
        if (text[i] !== '"') fail('looking for beginning of object key string');
        const key = scanString();
        const p = join(path, key);
        if (seen.has(key)) strict.push(`duplicate field ${JSON.stringify(p)}`);
        else seen.add(key);
        if (checkMeta && !OBJECT_META_FIELDS.has(key)) strict.push(`unknown field ${JSON.stringify(p)}`);
        if (checkTop && !TYPE_META_FIELDS.has(key) && !opts.topLevelFields?.has(key)) strict.push(`unknown field ${JSON.stringify(p)}`);
        let child: SchemaNode = ANY;
        if (node.kind === 'object') {
          const f = node.field(key);
          if (f) child = f;
          else strict.push(`unknown field ${JSON.stringify(p)}`);
        } else if (node.kind === 'map') {
          child = node.values;
        }
        skipWs();
        if (text[i] !== ':') fail('after object key');
        i++;
        scanValue(p, depth + 1, child);
        skipWs();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail('after object key:value pair');
      }
    }
    if (c === '[') {
      i++;
      skipWs();
      if (text[i] === ']') {
        i++;
        return;
      }
      const items = node.kind === 'array' ? node.items : ANY;
      for (let idx = 0; ; idx++) {
        scanValue(`${path}[${idx}]`, depth + 1, items);
        skipWs();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail('after array element');
      }
    }
    if (c === '"') {
      scanString();
      return;
    }
    if (c === '-' || isDigit(c)) {
      scanNumber();
      return;
    }
    if (c === 't') return scanLiteral('true');
    if (c === 'f') return scanLiteral('false');
    if (c === 'n') return scanLiteral('null');
    fail('looking for beginning of value');
  };

  try {
    scanValue('', 0, opts.schema ?? ANY);
  } catch (e) {
    // Callers deep in their own stacks may still run out before MAX_DEPTH: same answer.
    if (e instanceof RangeError) throw new JsonSyntaxError("invalid character '[' exceeded max depth");
    throw e;
  }
  skipWs();
  if (i < n) fail('after top-level value');
  return { strict };
}
