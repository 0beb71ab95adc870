/**
 * NamespaceAutoProvision and NamespaceExists (kube's plugin/pkg/admission/namespace/{autoprovision,exists}, off
 * by default):
 * - NamespaceAutoProvision: creating a namespaced object in a namespace that does not exist creates the
 *   namespace first (not for dry runs);
 * - NamespaceExists: any write to a namespaced object in a namespace that does not exist is the namespace's
 *   NotFound.
 */
import { StatusError, errors } from '../../machinery/errors.ts';
import { systemContext } from '../../registry/system-context.ts';
import { admissionForbidden } from '../errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionAttributes, type AdmissionPlugin, type PluginContext } from '../types.ts';
import { lister } from './support.ts';

const isNamespaceKind = (a: AdmissionAttributes) => a.kind.group === '' && a.kind.kind === 'Namespace';

export function namespaceAutoProvisionPlugin(ctx: PluginContext): AdmissionPlugin {
  const namespaces = lister(ctx, '', 'v1', 'namespaces');
  return {
    name: 'NamespaceAutoProvision',
    operations: operations('CREATE'),
    async admit(a) {
      if (a.dryRun || !a.namespace || isNamespaceKind(a)) return;
      if (namespaces.cached('', a.namespace)) return;
      const storage = ctx.registry.lookup('', 'v1', 'namespaces');
      if (!storage) return;
      try {
        await storage.create(systemContext(), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: a.namespace } }, {});
      } catch (e) {
        if (e instanceof StatusError && e.code === 409 && e.reason === 'AlreadyExists') return;
        throw admissionForbidden(a, (e as Error).message);
      }
    },
    ready: () => namespaces.ready(),
    stop: async () => namespaces.stop(),
  };
}

export function namespaceExistsPlugin(ctx: PluginContext): AdmissionPlugin {
  const namespaces = lister(ctx, '', 'v1', 'namespaces');
  return {
    name: 'NamespaceExists',
    operations: operations('CREATE', 'UPDATE', 'DELETE'),
    async validate(a) {
      if (!a.namespace || isNamespaceKind(a)) return;
      if (namespaces.cached('', a.namespace)) return;
      let ns;
      try {
        ns = await namespaces.live('', a.namespace);
      } catch (e) {
        throw errors.internal((e as Error).message);
      }
      if (!ns) throw errors.notFound({ kind: 'namespaces', name: a.namespace });
    },
    ready: () => namespaces.ready(),
    stop: async () => namespaces.stop(),
  };
}

registerPlugin('NamespaceAutoProvision', namespaceAutoProvisionPlugin);
registerPlugin('NamespaceExists', namespaceExistsPlugin);
