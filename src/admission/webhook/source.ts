/**
 * The webhooks to call (kube's mutating/validating webhook configuration managers): an informer over
 * MutatingWebhookConfigurations or ValidatingWebhookConfigurations; configurations in name order, each one's
 * webhooks in their order; every webhook with its selectors parsed and match conditions compiled once per
 * configuration revision. A change is visible to the next request as soon as the watch delivers it.
 * Fields the API defaults are read with kube's defaults when missing (failurePolicy Fail, matchPolicy
 * Equivalent, selectors `{}`, timeoutSeconds 10, reinvocationPolicy Never, rule scope `*`).
 */
import type { KObject } from '../../machinery/objects.ts';
import { Informer } from '../../client/informer.ts';
import type { RestStorage } from '../../registry/rest.ts';
import { MatchConditions, ParsedSelector, type LabelSelectorSpec, type MatchConditionSpec, type MatchCriteria, type RuleWithOperations } from '../matching/index.ts';
import type { ClientConfig } from './transport.ts';

export interface Webhook {
  /** `<configuration>/<webhook name>/<n>`: n counts earlier webhooks of the same name in the configuration. */
  readonly uid: string;
  readonly configurationName: string;
  readonly name: string;
  readonly criteria: MatchCriteria;
  readonly conditions: MatchConditions;
  readonly failurePolicy: string;
  readonly sideEffects: string | undefined;
  readonly timeoutSeconds: number;
  readonly admissionReviewVersions: readonly string[];
  readonly reinvocationPolicy: string;
  readonly clientConfig: ClientConfig;
}

type J = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function selector(v: unknown): ParsedSelector | Error {
  try {
    return ParsedSelector.parse(v as LabelSelectorSpec | undefined);
  } catch (e) {
    return e as Error;
  }
}

function webhookOf(config: KObject, raw: J, uid: string): Webhook {
  return {
    uid,
    configurationName: config.metadata.name ?? '',
    name: str(raw['name']) ?? '',
    criteria: {
      rules: (Array.isArray(raw['rules']) ? raw['rules'] : []) as RuleWithOperations[],
      matchPolicy: str(raw['matchPolicy']) ?? 'Equivalent',
      namespaceSelector: selector(raw['namespaceSelector']),
      objectSelector: selector(raw['objectSelector']),
    },
    conditions: MatchConditions.compile((Array.isArray(raw['matchConditions']) ? raw['matchConditions'] : []) as MatchConditionSpec[]),
    failurePolicy: str(raw['failurePolicy']) ?? 'Fail',
    sideEffects: str(raw['sideEffects']),
    timeoutSeconds: typeof raw['timeoutSeconds'] === 'number' ? raw['timeoutSeconds'] : 10,
    admissionReviewVersions: (Array.isArray(raw['admissionReviewVersions']) ? raw['admissionReviewVersions'] : []).filter((v): v is string => typeof v === 'string'),
    reinvocationPolicy: str(raw['reinvocationPolicy']) ?? 'Never',
    clientConfig: (raw['clientConfig'] ?? {}) as ClientConfig,
  };
}

/** The webhooks of one configuration, compiled (exported for tests). */
export function webhooksOf(config: KObject): Webhook[] {
  const seen = new Map<string, number>();
  return (Array.isArray(config['webhooks']) ? config['webhooks'] as J[] : []).map((raw) => {
    const name = str(raw?.['name']) ?? '';
    const n = seen.get(name) ?? 0;
    seen.set(name, n + 1);
    return webhookOf(config, raw ?? {}, `${config.metadata.name ?? ''}/${name}/${n}`);
  });
}

export class WebhookSource {
  readonly #informer: Informer | undefined;
  /** Compiled webhooks per configuration, reused while its resourceVersion stays. */
  readonly #compiled = new Map<string, { rv: string | undefined; hooks: Webhook[] }>();
  #all: readonly Webhook[] | undefined = [];
  #started: Promise<void> | undefined;

  constructor(storage: RestStorage | undefined) {
    if (!storage) return;
    this.#informer = new Informer({ storage });
    const changed = (): void => { this.#all = undefined; };
    this.#informer.addHandler({ onAdd: changed, onUpdate: changed, onDelete: changed });
  }

  start(): Promise<void> {
    return (this.#started ??= this.#informer?.start() ?? Promise.resolve());
  }

  hasSynced(): boolean {
    return this.#informer?.hasSynced() ?? true;
  }

  stop(): void {
    this.#informer?.stop();
  }

  /** Every webhook in call order. */
  webhooks(): readonly Webhook[] {
    if (this.#all) return this.#all;
    const configs = (this.#informer?.list() ?? []).slice().sort((a, b) => {
      const x = a.metadata.name ?? '';
      const y = b.metadata.name ?? '';
      return x < y ? -1 : x > y ? 1 : 0;
    });
    const live = new Set<string>();
    const out: Webhook[] = [];
    for (const c of configs) {
      const name = c.metadata.name ?? '';
      live.add(name);
      let entry = this.#compiled.get(name);
      if (!entry || entry.rv !== c.metadata.resourceVersion) {
        entry = { rv: c.metadata.resourceVersion, hooks: webhooksOf(c) };
        this.#compiled.set(name, entry);
      }
      out.push(...entry.hooks);
    }
    for (const name of [...this.#compiled.keys()]) if (!live.has(name)) this.#compiled.delete(name);
    this.#all = out;
    return out;
  }
}
