/** Shared fixtures for the CRD API tests. */

/** A namespaced Widget CRD with status and scale sub-resources, printer columns and a selectable field. */
export function crdManifest(o: { group?: string; plural?: string; kind?: string; shortNames?: string[]; scope?: string } = {}): Record<string, unknown> {
  const group = o.group ?? 'stable.example.com';
  const plural = o.plural ?? 'widgets';
  const kind = o.kind ?? 'Widget';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: o.scope ?? 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, shortNames: o.shortNames ?? ['wd'], categories: ['all'] },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { color: { type: 'string' }, replicas: { type: 'integer' }, size: { type: 'integer' } } },
              status: { type: 'object', properties: { phase: { type: 'string' }, replicas: { type: 'integer' }, selector: { type: 'string' } } },
            },
          },
        },
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
        additionalPrinterColumns: [
          { name: 'Color', type: 'string', jsonPath: '.spec.color' },
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
        selectableFields: [{ jsonPath: '.spec.color' }],
      }],
    },
  };
}

/** Polls `check` every 10 ms until it returns truthy (or fails after `timeoutMs`). */
export async function waitFor(check: () => Promise<unknown>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
