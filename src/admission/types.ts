/**
 * What an admission plugin is and what it is given (kube's admission.Interface, MutationInterface,
 * ValidationInterface and the plugin initializers, folded into one context object).
 */
import type { Admission, AdmissionAttributes, AdmissionOperation } from '../registry/admission.ts';
import type { RestRegistry } from '../registry/rest.ts';
import type { Catalog } from '../api/catalog.ts';
import type { Authorizer } from '../request/authorizer.ts';
import type { ResourceDef } from '../api/types.ts';

export type { Admission, AdmissionAttributes, AdmissionOperation };

export interface AdmissionPlugin {
  readonly name: string;
  /** The operations it acts on (kube's Handles); the chain skips it for the others. */
  readonly operations: ReadonlySet<AdmissionOperation>;
  /** Mutating phase: may change `attrs.object`. */
  admit?(attrs: AdmissionAttributes): Promise<void> | void;
  /** Validating phase: may refuse, never change. */
  validate?(attrs: AdmissionAttributes): Promise<void> | void;
  /** Resolves once the plugin's caches have loaded (the server is not ready before). */
  ready?(): Promise<void>;
  /** Stops the plugin's watches and timers. */
  stop?(): Promise<void>;
}

/** What a plugin factory receives. */
export interface PluginContext {
  /** Reads (and, for plugins that write, e.g. NamespaceAutoProvision, writes) through the registry. */
  readonly registry: RestRegistry;
  /**
   * The served resources (CRD versions come and go): which resources are equivalent (one storage, several
   * group versions) and how their objects convert, for matchPolicy Equivalent. Absent in unit tests.
   */
  readonly catalog?: Catalog;
  /** The server's authorizer (ValidatingAdmissionPolicy's `authorizer`, OwnerReferencesPermissionEnforcement). */
  readonly authorizer: () => Authorizer;
  readonly featureEnabled: (gate: string) => boolean;
  /**
   * The served resources, custom resources included (kube's RESTMapper: kinds → resources, and the equivalent
   * resources matchPolicy Equivalent considers). Absent in tests that build a chain without a catalog.
   */
  readonly resources?: () => readonly ResourceDef[];
  /**
   * The plugin's configuration from `--admission-control-config-file` (the parsed object: embedded
   * `configuration` or the file at `path`), undefined when none was given.
   */
  readonly config: unknown;
  /** Directory relative paths in the plugin's configuration are resolved against. */
  readonly configDir: string;
  readonly log: (line: string) => void;
  readonly now: () => Date;
  /** The plugin flags (`--default-not-ready-toleration-seconds`, …): the server's AdmissionOptions. */
  readonly options?: {
    readonly defaultNotReadyTolerationSeconds?: number;
    readonly defaultUnreachableTolerationSeconds?: number;
  };
  /** kube's RESTMapper for a group, version and kind (OwnerReferencesPermissionEnforcement); absent in unit tests. */
  readonly lookupKind?: (group: string, version: string, kind: string) => { readonly resource: string; readonly namespaced: boolean } | undefined;
  /** Where plugins that call out (the webhooks) report each call's latency. */
  readonly metrics?: AdmissionMetricsSink;
}

/**
 * Where admission latencies go (kube's apiserver_admission_step_/controller_/webhook_admission_duration_seconds);
 * the server's Metrics implements it. `type` is `admit` or `validate`; `rejected` whether the step refused.
 */
export interface AdmissionMetricsSink {
  observeAdmissionStep(type: 'admit' | 'validate', operation: string, rejected: boolean, seconds: number): void;
  observeAdmissionController(name: string, type: 'admit' | 'validate', operation: string, rejected: boolean, seconds: number): void;
  /** For webhook plugins: one call per webhook invoked. */
  observeAdmissionWebhook?(name: string, type: 'admit' | 'validate', operation: string, rejected: boolean, seconds: number): void;
}

export type PluginFactory = (ctx: PluginContext) => AdmissionPlugin | Promise<AdmissionPlugin>;

export const ALL_OPERATIONS: ReadonlySet<AdmissionOperation> = new Set(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']);

export function operations(...ops: AdmissionOperation[]): ReadonlySet<AdmissionOperation> {
  return new Set(ops);
}
