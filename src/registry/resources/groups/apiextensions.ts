/** apiextensions.k8s.io: CustomResourceDefinitions (serving the custom resources: src/apiextensions). */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { statusSub, API_EXT } from '../../../api/resources/define.ts';
import { crdStrategy } from '../apiextensions/strategy.ts';

export const apiextensions: GroupSpec = {
  group: 'apiextensions.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false, shortNames: ['crd', 'crds'],
    categories: API_EXT, subresources: [statusSub], storagePrefix: '/registry/apiextensions.k8s.io/customresourcedefinitions/',
    hashVersion: { group: 'apiextensions.k8s.io', version: 'v1beta1' },
    strategy: crdStrategy,
  }] }],
};
