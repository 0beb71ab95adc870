/**
 * Field selectors with kube-apiserver's grammar and error texts (k8s.io/apimachinery/pkg/fields):
 * comma-separated `key=value`, `key==value`, `key!=value` terms, ANDed. In values `\,` `\=` and `\\`
 * escape the special characters; keys have no escapes and split at the first operator. A missing field
 * compares as "" (so `spec.nodeName=` selects unscheduled pods), exactly as kube does.
 *
 * Which keys a resource supports is not checked here: `makePredicate` does that against the resource's
 * set, because kube-apiserver does it as a separate step with its own message.
 */
import { SelectorParseError } from './labels.ts';

export type FieldOperator = '=' | '!=';

export interface FieldRequirement {
  readonly field: string;
  /** `=` and `==` both become `=` (kube's selection.Equals). */
  readonly operator: FieldOperator;
  readonly value: string;
}

export interface FieldSelector {
  readonly empty: boolean;
  /** In kube's order: terms sorted by their source text. */
  readonly requirements: readonly FieldRequirement[];
  matches(fields: Readonly<Record<string, string>>): boolean;
  /** The value of the first `field=value` term for this field (e.g. `metadata.name`), if any. */
  exactValue(field: string): string | undefined;
  /** Canonical form with values escaped again. */
  toString(): string;
}

/** Escapes `\`, `,` and `=` so an arbitrary string can be a field selector value. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new SelectorParseError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      // Go prints the rune with %v: its code point number.
      throw new SelectorParseError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (inSlash) throw new SelectorParseError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Splits at commas that are not escaped; the escapes stay in the terms. */
function splitTerms(s: string): string[] {
  if (s.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

const TERM_OPERATORS = ['!=', '==', '='] as const;

function splitTerm(term: string): { lhs: string; op: (typeof TERM_OPERATORS)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of TERM_OPERATORS) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

class ParsedFieldSelector implements FieldSelector {
  readonly empty: boolean;
  constructor(readonly requirements: readonly FieldRequirement[]) {
    this.empty = requirements.length === 0;
  }

  matches(fields: Readonly<Record<string, string>>): boolean {
    for (const r of this.requirements) {
      const v = Object.hasOwn(fields, r.field) ? fields[r.field]! : '';
      if ((v === r.value) !== (r.operator === '=')) return false;
    }
    return true;
  }

  exactValue(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === '=')?.value;
  }

  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
  }
}

/** Parses once; throws `SelectorParseError` with kube-apiserver's message on bad input. */
export function parseFieldSelector(s: string): FieldSelector {
  const parts = splitTerms(s).sort();
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw new SelectorParseError(`invalid selector: '${s}'; can't understand '${part}'`);
    const value = unescapeValue(t.rhs);
    reqs.push(Object.freeze({ field: t.lhs, operator: t.op === '!=' ? '!=' : '=', value }));
  }
  return new ParsedFieldSelector(Object.freeze(reqs));
}

/** The selector that selects everything. */
export const everythingFields: FieldSelector = new ParsedFieldSelector([]);
