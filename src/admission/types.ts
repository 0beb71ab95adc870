/**
 * What an admission plugin is and what it is given (kube's admission.Interface, MutationInterface,
 * ValidationInterface and the plugin initializers, folded into one context object).
 */
import type { Admission, AdmissionAttributes, AdmissionOperation } from '../registry/admission.ts';
import type { RestRegistry } from '../registry/rest.ts';
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
}

export type PluginFactory = (ctx: PluginContext) => AdmissionPlugin | Promise<AdmissionPlugin>;

export const ALL_OPERATIONS: ReadonlySet<AdmissionOperation> = new Set(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']);

export function operations(...ops: AdmissionOperation[]): ReadonlySet<AdmissionOperation> {
  return new Set(ops);
}
