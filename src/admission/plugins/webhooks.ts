/**
 * MutatingAdmissionWebhook and ValidatingAdmissionWebhook (on by default): the webhooks of
 * MutatingWebhookConfigurations and ValidatingWebhookConfigurations (admissionregistration.k8s.io/v1), watched,
 * called for every operation (create, update, delete, connect) they select. The engine is src/admission/webhook;
 * matching is src/admission/matching (shared with the admission policies).
 *
 * Each plugin reads its own `--admission-control-config-file` entry (WebhookAdmissionConfiguration:
 * `kubeConfigFile`, the credentials for webhook servers). Writes of the admission configuration kinds never reach
 * webhooks. Ready once the configurations and namespaces have been listed; before that (never while serving,
 * since the server waits) a request would be refused as kube refuses it.
 */
import type { Authorizer } from '../../request/authorizer.ts';
import type { RestRegistry } from '../../registry/rest.ts';
import { admissionForbidden } from '../errors.ts';
import { EquivalentResources, isExemptAdmissionConfiguration, NamespaceLabels } from '../matching/index.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { ALL_OPERATIONS, type AdmissionAttributes, type AdmissionPlugin, type PluginContext } from '../types.ts';
import { AuthInfoResolver, kubeConfigFileOf } from '../webhook/config.ts';
import { MutatingDispatcher, ValidatingDispatcher, type DispatchDeps } from '../webhook/dispatch.ts';
import { EndpointServiceResolver } from '../webhook/service-resolver.ts';
import { WebhookSource } from '../webhook/source.ts';
import { WebhookTransport } from '../webhook/transport.ts';

/** One namespace informer for both plugins of a server (kube's shared informer factory). */
const sharedNamespaces = new WeakMap<RestRegistry, { labels: NamespaceLabels; users: number }>();

function acquireNamespaces(registry: RestRegistry): NamespaceLabels {
  let entry = sharedNamespaces.get(registry);
  if (!entry) {
    entry = { labels: new NamespaceLabels(registry), users: 0 };
    sharedNamespaces.set(registry, entry);
  }
  entry.users++;
  return entry.labels;
}

function releaseNamespaces(registry: RestRegistry): void {
  const entry = sharedNamespaces.get(registry);
  if (!entry || --entry.users > 0) return;
  entry.labels.stop();
  sharedNamespaces.delete(registry);
}

function webhookPlugin(mutating: boolean) {
  return (ctx: PluginContext): AdmissionPlugin => {
    const name = mutating ? 'MutatingAdmissionWebhook' : 'ValidatingAdmissionWebhook';
    const auth = AuthInfoResolver.load(name, kubeConfigFileOf(name, ctx.config));
    const source = new WebhookSource(ctx.registry.lookup('admissionregistration.k8s.io', 'v1', mutating ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations'));
    const namespaces = acquireNamespaces(ctx.registry);
    const transport = new WebhookTransport(new EndpointServiceResolver(ctx.registry), auth);
    const deps: DispatchDeps = {
      namespaces,
      equivalents: new EquivalentResources(ctx.catalog),
      transport,
      authorizer: (): Authorizer | undefined => {
        try {
          return ctx.authorizer();
        } catch {
          return undefined;
        }
      },
      log: ctx.log,
      metrics: ctx.metrics,
    };
    const dispatcher = mutating ? new MutatingDispatcher(deps) : new ValidatingDispatcher(deps);
    let stopped = false;

    async function run(attrs: AdmissionAttributes): Promise<void> {
      const hooks = source.webhooks();
      if (hooks.length === 0 || isExemptAdmissionConfiguration(attrs.kind)) return;
      if (!source.hasSynced() || !namespaces.hasSynced()) throw admissionForbidden(attrs, 'not yet ready to handle request');
      await dispatcher.dispatch(attrs, hooks);
    }

    return {
      name,
      operations: ALL_OPERATIONS,
      ...(mutating ? { admit: run } : { validate: run }),
      async ready() {
        await Promise.all([source.start(), namespaces.start()]);
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        source.stop();
        transport.close();
        releaseNamespaces(ctx.registry);
      },
    };
  };
}

registerPlugin('MutatingAdmissionWebhook', webhookPlugin(true));
registerPlugin('ValidatingAdmissionWebhook', webhookPlugin(false));
