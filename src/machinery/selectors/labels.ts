/**
 * Label selectors with kube-apiserver's grammar, semantics and error texts (k8s.io/apimachinery/pkg/labels):
 *
 *   selector    ::= requirement ("," requirement)*
 *   requirement ::= ["!"] KEY [ ("in" | "notin") "(" VALUES ")" | ("=" | "==" | "!=" | ">" | "<") VALUE ]
 *
 * Whitespace separates tokens and is otherwise ignored; `in`/`notin` are keywords only in operator
 * position (`x in (in)` is fine). Keys and values are validated like label keys and values. Requirements
 * are ANDed and kept sorted by key (stable), as `labels.Parse` does, so `toString()` is canonical.
 *
 * Example: `parseLabelSelector('env in (prod,dev),!canary').matches({ env: 'dev' }) === true`.
 * A parse failure throws `SelectorParseError` whose message is what kube-apiserver returns in its 400.
 */
import { goQuote } from '../go-quote.ts';
import { isQualifiedName, isValidLabelValue } from '../validation/names.ts';

/** apimachinery's selection.Operator strings (what SubjectAccessReview requirements carry). */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** Sorted, de-duplicated. Empty for `exists` and `!`. */
  readonly values: readonly string[];
}

export interface LabelSelector {
  /** True when it selects everything (no requirements). */
  readonly empty: boolean;
  readonly requirements: readonly LabelRequirement[];
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** When a requirement pins `key` to one value (`=`, `==`, or `in` with one value), that value. */
  requiresExactMatch(key: string): string | undefined;
  /** Canonical form, as kube prints it (`a=b,c in (x,y)`). */
  toString(): string;
}

/** A selector string kube-apiserver would reject; `message` is the text of its 400 BadRequest. */
export class SelectorParseError extends Error {
  override name = 'SelectorParseError';
}

// ---- lexer ---------------------------------------------------------------------------------------------

const enum Tok { Error, End, ClosedPar, Comma, DoesNotExist, DoubleEquals, Equals, GreaterThan, Identifier, In, LessThan, NotEquals, NotIn, OpenPar }

const KEYWORDS: ReadonlyMap<string, Tok> = new Map([
  [')', Tok.ClosedPar], [',', Tok.Comma], ['!', Tok.DoesNotExist], ['==', Tok.DoubleEquals], ['=', Tok.Equals],
  ['>', Tok.GreaterThan], ['in', Tok.In], ['<', Tok.LessThan], ['!=', Tok.NotEquals], ['notin', Tok.NotIn], ['(', Tok.OpenPar],
]);

interface Item { readonly tok: Tok; readonly lit: string }

const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecial = (ch: string): boolean => '=!(),><'.includes(ch);

/** Tokenizes like apimachinery's Lexer; a NUL character ends the input there, as in Go. */
function scan(s: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  const read = (): string => (pos < s.length ? s[pos++]! : '\0');
  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    if (ch === '\0') {
      items.push({ tok: Tok.End, lit: '' });
      return items;
    }
    pos--;
    if (isSpecial(ch)) {
      // Longest run of special characters that is still a known operator ("!=" but "!" then "(").
      let buf = '';
      let last: Item | undefined;
      for (;;) {
        const c = read();
        if (c === '\0') break;
        if (!isSpecial(c)) { pos--; break; }
        buf += c;
        const t = KEYWORDS.get(buf);
        if (t !== undefined) last = { tok: t, lit: buf };
        else if (last) { pos--; break; }
      }
      items.push(last ?? { tok: Tok.Error, lit: `error expected: keyword found '${buf}'` });
    } else {
      let buf = '';
      for (;;) {
        const c = read();
        if (c === '\0') break;
        if (isSpecial(c) || isWhitespace(c)) { pos--; break; }
        buf += c;
      }
      items.push({ tok: KEYWORDS.get(buf) ?? Tok.Identifier, lit: buf });
    }
  }
}

// ---- parser --------------------------------------------------------------------------------------------

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

class Parser {
  private position = 0;
  constructor(private readonly items: Item[]) {}

  /** In value context `in`/`notin` are plain identifiers. */
  private peek(values: boolean): Item {
    const it = this.items[this.position]!;
    return values && (it.tok === Tok.In || it.tok === Tok.NotIn) ? { tok: Tok.Identifier, lit: it.lit } : it;
  }

  private next(values: boolean): Item {
    const it = this.peek(values);
    this.position++;
    return it;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.peek(true);
      if (tok === Tok.End) return reqs;
      if (tok !== Tok.Identifier && tok !== Tok.DoesNotExist) {
        throw new SelectorParseError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
      try {
        reqs.push(this.requirement());
      } catch (e) {
        if (e instanceof SelectorParseError) throw new SelectorParseError(`unable to parse requirement: ${e.message}`);
        throw e;
      }
      const after = this.next(true);
      if (after.tok === Tok.End) return reqs;
      if (after.tok !== Tok.Comma) throw new SelectorParseError(`found '${after.lit}', expected: ',' or 'end of string'`);
      const t2 = this.peek(true);
      if (t2.tok !== Tok.Identifier && t2.tok !== Tok.DoesNotExist) {
        throw new SelectorParseError(`found '${t2.lit}', expected: identifier after ','`);
      }
    }
  }

  private requirement(): LabelRequirement {
    let op: LabelOperator | undefined;
    let it = this.next(true);
    if (it.tok === Tok.DoesNotExist) {
      op = '!';
      it = this.next(true);
    }
    if (it.tok !== Tok.Identifier) throw new SelectorParseError(`found '${it.lit}', expected: identifier`);
    const key = it.lit;
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length) throw new SelectorParseError(`<nil>: Invalid value: ${goQuote(key)}: ${keyErrs.join('; ')}`);
    const ahead = this.peek(true).tok;
    if (ahead === Tok.End || ahead === Tok.Comma) op ??= 'exists';
    if (op === 'exists' || op === '!') return newRequirement(key, op, []);

    const o = this.next(false);
    switch (o.tok) {
      case Tok.In: op = 'in'; break;
      case Tok.NotIn: op = 'notin'; break;
      case Tok.Equals: op = '='; break;
      case Tok.DoubleEquals: op = '=='; break;
      case Tok.NotEquals: op = '!='; break;
      case Tok.GreaterThan: op = 'gt'; break;
      case Tok.LessThan: op = 'lt'; break;
      default: throw new SelectorParseError(`found '${o.lit}', expected: ${BINARY_OPERATORS}`);
    }
    const values = op === 'in' || op === 'notin' ? this.valueSet() : this.exactValue();
    return newRequirement(key, op, [...values].sort());
  }

  private valueSet(): Set<string> {
    const open = this.next(true);
    if (open.tok !== Tok.OpenPar) throw new SelectorParseError(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.peek(true);
    if (tok === Tok.ClosedPar) {
      this.next(true);
      return new Set(['']);
    }
    if (tok !== Tok.Identifier && tok !== Tok.Comma) {
      throw new SelectorParseError(`found '${lit}', expected: ',', ')' or identifier`);
    }
    const s = this.identifierList();
    // apimachinery reports the token seen before the list here, not the offending one.
    if (this.next(true).tok !== Tok.ClosedPar) throw new SelectorParseError(`found '${lit}', expected: ')'`);
    return s;
  }

  /** Comma-separated, possibly empty identifiers: `(a,,b)`, `(,a)`, `(a,)` all include "". */
  private identifierList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const it = this.next(true);
      if (it.tok === Tok.Identifier) {
        s.add(it.lit);
        const n = this.peek(true);
        if (n.tok === Tok.Comma) continue;
        if (n.tok === Tok.ClosedPar) return s;
        throw new SelectorParseError(`found '${n.lit}', expected: ',' or ')'`);
      } else if (it.tok === Tok.Comma) {
        if (s.size === 0) s.add('');
        const n = this.peek(true);
        if (n.tok === Tok.ClosedPar) {
          s.add('');
          return s;
        }
        if (n.tok === Tok.Comma) {
          this.next(true);
          s.add('');
        }
      } else {
        throw new SelectorParseError(`found '${it.lit}', expected: ',', or identifier`);
      }
    }
  }

  private exactValue(): Set<string> {
    const ahead = this.peek(true).tok;
    if (ahead === Tok.End || ahead === Tok.Comma) return new Set(['']);
    const it = this.next(true);
    if (it.tok === Tok.Identifier) return new Set([it.lit]);
    throw new SelectorParseError(`found '${it.lit}', expected: identifier`);
  }
}

const INT64 = /^[+-]?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Go's strconv.ParseInt(v, 10, 64); undefined when it would fail. */
function parseInt64(v: string): bigint | undefined {
  if (!INT64.test(v)) return undefined;
  const n = BigInt(v);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

/** apimachinery's NewRequirement checks for the operators the parser can produce; errors aggregated. */
function newRequirement(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
  const errs: string[] = [];
  if (operator === 'gt' || operator === 'lt') {
    values.forEach((v, i) => {
      if (parseInt64(v) === undefined) errs.push(`values[${i}]: Invalid value: ${goQuote(v)}: for 'Gt', 'Lt' operators, the value must be an integer`);
    });
  }
  values.forEach((v, i) => {
    const ve = isValidLabelValue(v);
    if (ve.length) errs.push(`values[${i}][${key}]: Invalid value: ${goQuote(v)}: ${ve.join('; ')}`);
  });
  if (errs.length) {
    const uniq = [...new Set(errs)];
    throw new SelectorParseError(uniq.length === 1 ? uniq[0]! : `[${uniq.join(', ')}]`);
  }
  return Object.freeze({ key, operator, values: Object.freeze(values) });
}

// ---- selector ------------------------------------------------------------------------------------------

function requirementMatches(r: LabelRequirement, labels: Readonly<Record<string, string>> | undefined): boolean {
  const has = labels !== undefined && Object.hasOwn(labels, r.key);
  switch (r.operator) {
    case 'in': case '=': case '==':
      return has && r.values.includes(labels[r.key]!);
    case 'notin': case '!=':
      return !has || !r.values.includes(labels[r.key]!);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt': case 'lt': {
      if (!has) return false;
      const lv = parseInt64(labels[r.key]!);
      const rv = r.values.length === 1 ? parseInt64(r.values[0]!) : undefined;
      if (lv === undefined || rv === undefined) return false;
      return r.operator === 'gt' ? lv > rv : lv < rv;
    }
  }
}

export function requirementToString(r: LabelRequirement): string {
  const vals = r.values.join(',');
  switch (r.operator) {
    case '!': return `!${r.key}`;
    case 'exists': return r.key;
    case 'in': return `${r.key} in (${vals})`;
    case 'notin': return `${r.key} notin (${vals})`;
    case 'gt': return `${r.key}>${vals}`;
    case 'lt': return `${r.key}<${vals}`;
    default: return `${r.key}${r.operator}${vals}`;
  }
}

class ParsedLabelSelector implements LabelSelector {
  readonly empty: boolean;
  constructor(readonly requirements: readonly LabelRequirement[]) {
    this.empty = requirements.length === 0;
  }

  matches(labels: Readonly<Record<string, string>> | undefined): boolean {
    for (const r of this.requirements) if (!requirementMatches(r, labels)) return false;
    return true;
  }

  requiresExactMatch(key: string): string | undefined {
    const r = this.requirements.find((x) => x.key === key);
    if (!r || r.values.length !== 1) return undefined;
    return r.operator === '=' || r.operator === '==' || r.operator === 'in' ? r.values[0] : undefined;
  }

  toString(): string {
    return this.requirements.map(requirementToString).join(',');
  }
}

/** Parses once; throws `SelectorParseError` with kube-apiserver's message on bad input. */
export function parseLabelSelector(s: string): LabelSelector {
  const reqs = new Parser(scan(s)).parse();
  // Stable sort by key keeps `a=1,a!=2` in input order, like Go's sort for the common case.
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return new ParsedLabelSelector(Object.freeze(reqs));
}

/** The selector that selects everything. */
export const everythingLabels: LabelSelector = new ParsedLabelSelector([]);
