/**
 * PodSecurity (on by default): Pod Security admission as kube-apiserver v1.33 runs it, a validating plugin on
 * creates and updates of pods, namespaces and the workload kinds with pod templates (see ./admission.ts for the
 * decisions). Namespaces are read from an informer (the server is ready once it has listed them), with a live
 * read when a namespace is not in it yet; a namespace's pods are listed from the watch cache. Warnings go to the
 * request's Warning headers, audit annotations under `pod-security.kubernetes.io/`, refusals are the
 * library's 403 (or 422 for bad namespace labels).
 */
import type { KObject } from '../../../machinery/objects.ts';
import { Informer } from '../../../client/informer.ts';
import { systemContext } from '../../../registry/system-context.ts';
import { registerPlugin } from '../../plugin-catalog.ts';
import { operations, type AdmissionPlugin, type PluginContext } from '../../types.ts';
import { LABEL_PREFIX } from './api.ts';
import { PodSecurityAdmission, appliesTo } from './admission.ts';
import { loadConfiguration } from './configuration.ts';
import { Evaluator } from './evaluator.ts';

/** kube's feature gate that relaxes runAsNonRoot, runAsUser and procMount for pods in user namespaces. */
const USER_NAMESPACES_GATE = 'UserNamespacesPodSecurityStandards';

export function podSecurity(ctx: PluginContext): AdmissionPlugin {
  const config = loadConfiguration(ctx.config);
  const evaluator = new Evaluator(undefined, { relaxForUserNamespaces: ctx.featureEnabled(USER_NAMESPACES_GATE) });
  const namespaces = ctx.registry.lookup('', 'v1', 'namespaces');
  const informer = namespaces ? new Informer({ storage: namespaces, log: ctx.log }) : undefined;
  let started: Promise<void> | undefined;

  const core = new PodSecurityAdmission({
    config,
    evaluator,
    async getNamespace(name) {
      const cached = informer?.get('', name);
      if (cached) return cached;
      if (!namespaces) throw new Error('namespaces are not served');
      return (await namespaces.get(systemContext(), name, {})).object;
    },
    async listPods(namespace, signal) {
      const pods = ctx.registry.lookup('', 'v1', 'pods');
      if (!pods) return [];
      const res = await pods.list(systemContext({ namespace, signal }), { resourceVersion: '0' });
      return res.items.map((c) => c.object as KObject);
    },
  });

  return {
    name: 'PodSecurity',
    operations: operations('CREATE', 'UPDATE'),
    async validate(a) {
      if (!appliesTo(a.resource.group, a.resource.resource)) return;
      const res = await core.validate({
        operation: a.operation, group: a.resource.group, resource: a.resource.resource, subresource: a.subresource,
        kind: a.kind.kind, name: a.name, namespace: a.namespace, object: a.object, oldObject: a.oldObject,
        username: a.user.username,
      });
      a.warnings.push(...res.warnings);
      for (const [k, v] of Object.entries(res.auditAnnotations)) a.auditAnnotations[LABEL_PREFIX + k] = v;
      if (!res.allowed) throw res.error!;
    },
    ready() {
      started ??= informer?.start() ?? Promise.resolve();
      return started;
    },
    stop() {
      informer?.stop();
      return Promise.resolve();
    },
  };
}

registerPlugin('PodSecurity', podSecurity);
