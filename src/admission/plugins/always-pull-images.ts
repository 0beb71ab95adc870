/**
 * AlwaysPullImages (kube's plugin/pkg/admission/alwayspullimages, off by default): every container, init
 * container and ephemeral container of a pod gets `imagePullPolicy: Always`, so a pod can only use an image its
 * node pulls with the pod's own credentials. Pod create and update; an update that brings no new image is left
 * alone. The validating half refuses a pod (changed by a later plugin) whose policy is not Always, listing
 * every such container.
 */
import { errors } from '../../machinery/errors.ts';
import { admissionForbidden } from '../errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionAttributes, type AdmissionPlugin } from '../types.ts';
import { isObj, isResource, plainError, podContainers, specOf, str } from './support.ts';

function ignore(a: AdmissionAttributes): boolean {
  if (a.subresource !== '' || !isResource(a, '', 'pods')) return true;
  if (a.operation !== 'UPDATE' || !isObj(a.object) || !isObj(a.oldObject)) return false;
  // An update that brings no image the pod did not already have.
  const old = new Set(podContainers(specOf(a.oldObject)).map(({ c }) => str(c['image'])));
  return podContainers(specOf(a.object)).every(({ c }) => old.has(str(c['image'])));
}

export function alwaysPullImagesPlugin(): AdmissionPlugin {
  return {
    name: 'AlwaysPullImages',
    operations: operations('CREATE', 'UPDATE'),
    admit(a) {
      if (ignore(a)) return;
      if (!isObj(a.object)) throw errors.badRequest('Resource was marked with kind Pod but was unable to be converted');
      for (const { c } of podContainers(specOf(a.object))) c['imagePullPolicy'] = 'Always';
    },
    validate(a) {
      if (ignore(a)) return;
      if (!isObj(a.object)) throw errors.badRequest('Resource was marked with kind Pod but was unable to be converted');
      const messages = new Set<string>();
      for (const { c, path } of podContainers(specOf(a.object))) {
        if (c['imagePullPolicy'] === 'Always') continue;
        messages.add(admissionForbidden(a, `${path}.imagePullPolicy: Unsupported value: ${JSON.stringify(str(c['imagePullPolicy']))}: supported values: "Always"`).message);
      }
      // kube returns the forbidden errors as one aggregate, which is not an API status: a 500 carrying their text.
      if (messages.size) throw plainError(messages.size === 1 ? [...messages][0]! : `[${[...messages].join(', ')}]`);
    },
  };
}

registerPlugin('AlwaysPullImages', alwaysPullImagesPlugin);
