/** autoscaling: HorizontalPodAutoscalers, served as v2 (preferred, storage) and v1. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { statusSub } from '../../../api/resources/define.ts';
import * as oc from '../other/columns.ts';
import { hpaStrategy } from '../autoscaling/hpa.ts';

const hpa = {
  resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true, shortNames: ['hpa'], categories: ['all'],
  subresources: [statusSub], storage: { group: 'autoscaling', version: 'v2' }, tableColumns: oc.horizontalPodAutoscalerColumns,
  strategy: hpaStrategy,
};

export const autoscaling: GroupSpec = {
  group: 'autoscaling',
  versions: [
    { version: 'v2', resources: [hpa] },
    // v1 objects are stored as v2: the registry must convert (targetCPUUtilizationPercentage ↔ metrics).
    { version: 'v1', resources: [hpa] },
  ],
};
