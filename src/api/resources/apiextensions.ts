/** apiextensions.k8s.io: CustomResourceDefinitions (stored only here; serving CRs is the CRD issue). */
import type { GroupSpec } from './define.ts';
import { statusSub, API_EXT } from './define.ts';
import { statusStrategy } from '../../registry/resources/strategy-kit.ts';

export const apiextensions: GroupSpec = {
  group: 'apiextensions.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false, shortNames: ['crd', 'crds'],
    categories: API_EXT, subresources: [statusSub], storagePrefix: '/registry/apiextensions.k8s.io/customresourcedefinitions/',
    hashVersion: { group: 'apiextensions.k8s.io', version: 'v1beta1' },
    strategy: statusStrategy({ status: true, generation: true, allowUnconditionalUpdate: false }),
  }] }],
};
