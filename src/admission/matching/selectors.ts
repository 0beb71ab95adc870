/**
 * namespaceSelector and objectSelector of webhooks and policies (kube's predicates/namespace and
 * predicates/object):
 * - a request for a cluster-scoped object other than a Namespace always passes the namespace selector; a
 *   Namespace create or update is matched on its own (new) labels, every other request on the labels of its
 *   namespace, read from an informer and, when the informer does not know the namespace yet, from storage (a
 *   namespace that does not exist is the request's NotFound);
 * - the object selector matches when the new object or the old one has matching labels; objects without
 *   metadata (connect options, DeleteOptions) never match a non-empty selector.
 * A selector that is absent is treated as the API default `{}` (everything), as stored objects are defaulted.
 */
import { errors, StatusError } from '../../machinery/errors.ts';
import type { KObject } from '../../machinery/objects.ts';
import { Informer } from '../../client/informer.ts';
import type { AdmissionAttributes } from '../../registry/admission.ts';
import type { RestRegistry, RestStorage } from '../../registry/rest.ts';
import { systemContext } from '../../registry/system-context.ts';
import { requestNamespace } from './rules.ts';

/** metav1.LabelSelector as stored. */
export interface LabelSelectorSpec {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly { key?: string; operator?: string; values?: readonly string[] }[];
}

type Requirement = (labels: Readonly<Record<string, string>>) => boolean;

/** metav1.LabelSelectorAsSelector's result: `empty` selects everything; errors are kube's wording. */
export class ParsedSelector {
  private constructor(readonly empty: boolean, private readonly requirements: readonly Requirement[]) {}

  static readonly everything = new ParsedSelector(true, []);

  /** Throws an Error with kube's message for an operator it does not know. */
  static parse(spec: LabelSelectorSpec | undefined | null): ParsedSelector {
    if (!spec) return ParsedSelector.everything;
    const reqs: Requirement[] = [];
    for (const [k, v] of Object.entries(spec.matchLabels ?? {})) reqs.push((l) => Object.hasOwn(l, k) && l[k] === v);
    for (const e of spec.matchExpressions ?? []) {
      const key = e.key ?? '';
      const values = e.values ?? [];
      switch (e.operator) {
        case 'In': reqs.push((l) => Object.hasOwn(l, key) && values.includes(l[key]!)); break;
        case 'NotIn': reqs.push((l) => !Object.hasOwn(l, key) || !values.includes(l[key]!)); break;
        case 'Exists': reqs.push((l) => Object.hasOwn(l, key)); break;
        case 'DoesNotExist': reqs.push((l) => !Object.hasOwn(l, key)); break;
        default: throw new Error(`${JSON.stringify(e.operator ?? '')} is not a valid label selector operator`);
      }
    }
    return new ParsedSelector(reqs.length === 0, reqs);
  }

  matches(labels: Readonly<Record<string, string>> | undefined): boolean {
    const l = labels ?? {};
    return this.requirements.every((r) => r(l));
  }
}

const labelsOf = (obj: KObject | undefined): Readonly<Record<string, string>> | undefined => {
  const meta = obj?.metadata as unknown;
  if (!meta || typeof meta !== 'object') return undefined;
  return ((meta as { labels?: Record<string, string> }).labels) ?? {};
};

/** kube's object.Matcher.MatchObjectSelector (the selector already parsed). */
export function objectSelectorMatches(selector: ParsedSelector, attrs: Pick<AdmissionAttributes, 'object' | 'oldObject'>): boolean {
  if (selector.empty) return true;
  const matchOne = (o: KObject | undefined): boolean => {
    const l = labelsOf(o);
    return l !== undefined && selector.matches(l);
  };
  return matchOne(attrs.object) || matchOne(attrs.oldObject);
}

/** Namespace labels for namespace selectors: an informer over namespaces, storage behind it. */
export class NamespaceLabels {
  readonly #storage: RestStorage | undefined;
  readonly #informer: Informer | undefined;
  #started: Promise<void> | undefined;

  constructor(registry: RestRegistry) {
    this.#storage = registry.lookup('', 'v1', 'namespaces');
    this.#informer = this.#storage ? new Informer({ storage: this.#storage }) : undefined;
  }

  /** Starts the informer once; resolves when it has listed. */
  start(): Promise<void> {
    return (this.#started ??= this.#informer?.start() ?? Promise.resolve());
  }

  hasSynced(): boolean {
    return this.#informer?.hasSynced() ?? true;
  }

  stop(): void {
    this.#informer?.stop();
  }

  /** The labels of namespace `name`; the NotFound StatusError when it does not exist. */
  async labels(name: string): Promise<Readonly<Record<string, string>>> {
    const cached = this.#informer?.get('', name);
    if (cached) return cached.metadata.labels ?? {};
    if (!this.#storage) throw errors.notFound({ kind: 'namespaces', name });
    // Not in the cache yet (just created): ask storage before calling it missing.
    const live = await this.#storage.get(systemContext(), name, { resourceVersion: '' });
    return live.object.metadata.labels ?? {};
  }
}

/**
 * kube's namespace.Matcher.MatchNamespaceSelector: resolves to whether the request is selected; throws the
 * NotFound of a missing namespace (kube answers it for backwards compatibility) and a 500 for other failures.
 */
export async function namespaceSelectorMatches(selector: ParsedSelector, attrs: AdmissionAttributes, namespaces: NamespaceLabels): Promise<boolean> {
  const ns = requestNamespace(attrs);
  const isNamespace = attrs.resource.resource === 'namespaces';
  if (!ns && !isNamespace) return true;
  if (selector.empty) return true;
  let labels: Readonly<Record<string, string>>;
  if (isNamespace && !attrs.subresource && (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE')) {
    // The request writes the Namespace itself: the informer does not have its new labels yet.
    labels = labelsOf(attrs.object) ?? {};
  } else {
    try {
      labels = await namespaces.labels(ns);
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) throw e;
      throw errors.internal((e as Error)?.message ?? String(e));
    }
  }
  return selector.matches(labels);
}
