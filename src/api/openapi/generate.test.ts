import { builtinCatalog } from '../../registry/resources/groups/index.ts';
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { swaggerV2, v3Document, v3Keys } from '../../endpoints/openapi/documents.ts';
import { createProtobufSchemaSource } from '../../endpoints/openapi/protobuf-source.ts';
import { collectDefinitions, definitionNameOf, messageDefinition, messageNameFor, type Schema } from './generate.ts';
import { kindOfMessage } from './kinds.ts';
import { fieldDoc, typeDoc } from './docs/index.ts';

/** A definition's properties without their descriptions (the shape tests compare structure only). */
const props = (s: Schema | undefined) => Object.fromEntries(Object.entries((s?.properties ?? {}) as Record<string, Schema>)
  .map(([k, v]) => [k, Object.fromEntries(Object.entries(v).filter(([key]) => key !== 'description'))])) as Record<string, Schema>;
/** A definition's properties as generated, descriptions included. */
const described = (s: Schema | undefined) => (s?.properties ?? {}) as Record<string, Schema>;

test('definition names follow kube packages', () => {
  assert.equal(definitionNameOf('apps.v1.Deployment'), 'io.k8s.api.apps.v1.Deployment');
  assert.equal(definitionNameOf('meta.ObjectMeta'), 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
  assert.equal(definitionNameOf('util.Quantity'), 'io.k8s.apimachinery.pkg.api.resource.Quantity');
  assert.equal(definitionNameOf('util.IntOrString'), 'io.k8s.apimachinery.pkg.util.intstr.IntOrString');
  assert.equal(messageNameFor('', 'v1', 'Pod'), 'core.v1.Pod');
  assert.equal(messageNameFor('rbac.authorization.k8s.io', 'v1', 'Role'), 'rbac.v1.Role');
  assert.equal(messageNameFor('internal.apiserver.k8s.io', 'v1alpha1', 'StorageVersion'), 'apiserverinternal.v1alpha1.StorageVersion');
  assert.equal(messageNameFor('example.com', 'v1', 'Widget'), undefined);
});

test('kinds carry TypeMeta and their GVK; templates and parts do not', () => {
  assert.deepEqual(kindOfMessage('apps.v1.Deployment'), { group: 'apps', kind: 'Deployment', version: 'v1' });
  assert.deepEqual(kindOfMessage('flowcontrol.v1.FlowSchemaList'), { group: 'flowcontrol.apiserver.k8s.io', kind: 'FlowSchemaList', version: 'v1' });
  assert.deepEqual(kindOfMessage('autoscaling.v1.Scale'), { group: 'autoscaling', kind: 'Scale', version: 'v1' });
  assert.equal(kindOfMessage('core.v1.PodTemplateSpec'), undefined);
  assert.equal(kindOfMessage('core.v1.PersistentVolumeClaimTemplate'), undefined);
  assert.equal(kindOfMessage('apps.v1.DeploymentSpec'), undefined);
  assert.ok(props(messageDefinition('core.v1.PodTemplate', 'v2')).kind);
  assert.equal(props(messageDefinition('core.v1.PodTemplateSpec', 'v2')).kind, undefined);
});

test('field shapes: scalars, refs, maps, lists and merge markers', () => {
  const spec = props(messageDefinition('apps.v1.DeploymentSpec', 'v3'));
  assert.deepEqual(spec.replicas, { type: 'integer', format: 'int32' });
  assert.deepEqual(spec.selector, { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' }] });
  assert.deepEqual(spec.template, { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.PodTemplateSpec' }], default: {} });
  assert.equal(spec.strategy!['x-kubernetes-patch-strategy'], 'retainKeys');
  const v2 = props(messageDefinition('apps.v1.DeploymentSpec', 'v2'));
  assert.deepEqual(v2.selector, { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' });
  const pod = props(messageDefinition('core.v1.PodSpec', 'v3'));
  assert.deepEqual(pod.containers!['x-kubernetes-list-map-keys'], ['name']);
  assert.equal(pod.containers!['x-kubernetes-list-type'], 'map');
  assert.equal(pod.containers!['x-kubernetes-patch-merge-key'], 'name');
  assert.deepEqual(pod.containers!.items, { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.Container' }], default: {} });
  assert.deepEqual(pod.nodeSelector, { type: 'object', additionalProperties: { type: 'string', default: '' }, 'x-kubernetes-map-type': 'atomic' });
  assert.deepEqual(pod.overhead!.additionalProperties, { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity' });
  assert.deepEqual(props(messageDefinition('core.v1.Secret', 'v2')).data, { type: 'object', additionalProperties: { type: 'string', format: 'byte' } });
  // Embedded (inline) structs lift their fields into the parent.
  const vol = props(messageDefinition('core.v1.Volume', 'v2'));
  assert.ok(vol.name && vol.hostPath && vol.configMap);
});

test('descriptions sit where kube puts them: on the definition, beside $ref (v2) or allOf (v3), on lists and maps', () => {
  for (const dialect of ['v2', 'v3'] as const) {
    const pod = messageDefinition('core.v1.Pod', dialect);
    assert.equal(pod.description, typeDoc('core.v1.Pod'));
    const p = described(pod);
    assert.equal(p.spec!.description, fieldDoc('core.v1.Pod', 'spec'));
    assert.ok(dialect === 'v2' ? p.spec!.$ref : p.spec!.allOf, 'the description is a sibling of the reference');
    // A kind's apiVersion and kind: as meta.TypeMeta describes them.
    assert.equal(p.apiVersion!.description, fieldDoc('meta.TypeMeta', 'apiVersion'));
    assert.equal(p.kind!.description, fieldDoc('meta.TypeMeta', 'kind'));
    const spec = described(messageDefinition('core.v1.PodSpec', dialect));
    assert.equal(spec.containers!.description, fieldDoc('core.v1.PodSpec', 'containers'));
    assert.equal((spec.containers!.items as Schema).description, undefined, 'items carry no description of their own');
    assert.equal(spec.nodeSelector!.description, fieldDoc('core.v1.PodSpec', 'nodeSelector'));
    // Fields lifted from an embedded struct: the embedded type's words, unless the parent says more.
    assert.equal(described(messageDefinition('core.v1.Probe', dialect)).exec!.description, fieldDoc('core.v1.ProbeHandler', 'exec'));
    assert.equal(described(messageDefinition('core.v1.ConfigMapKeySelector', dialect)).name!.description, fieldDoc('core.v1.ConfigMapKeySelector', 'name'));
    assert.equal(described(messageDefinition('core.v1.Volume', dialect)).hostPath!.description, fieldDoc('core.v1.VolumeSource', 'hostPath'));
    assert.equal(described(messageDefinition('core.v1.EphemeralContainer', dialect)).ports!.description, fieldDoc('core.v1.EphemeralContainerCommon', 'ports'));
  }
  const defs = collectDefinitions(['core.v1.Pod'], 'v3');
  assert.equal(defs['io.k8s.apimachinery.pkg.api.resource.Quantity']!.description, typeDoc('util.Quantity'));
  assert.equal(defs['io.k8s.apimachinery.pkg.apis.meta.v1.Time']!.description, typeDoc('meta.Time'));
});

test('value forms render as kube renders them', () => {
  const defs = collectDefinitions(['policy.v1.PodDisruptionBudget', 'apps.v1.ControllerRevision', 'core.v1.Event'], 'v3');
  assert.deepEqual({ ...defs['io.k8s.apimachinery.pkg.util.intstr.IntOrString'], description: undefined },
    { oneOf: [{ type: 'integer' }, { type: 'string' }], format: 'int-or-string', description: undefined });
  assert.equal(defs['io.k8s.apimachinery.pkg.apis.meta.v1.Time']!.format, 'date-time');
  assert.equal(defs['io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime']!.format, 'date-time');
  assert.equal(defs['io.k8s.apimachinery.pkg.runtime.RawExtension']!.type, 'object');
  const v2 = collectDefinitions(['core.v1.Pod'], 'v2');
  assert.equal(v2['io.k8s.apimachinery.pkg.api.resource.Quantity']!.type, 'string');
  assert.equal(v2['io.k8s.apimachinery.pkg.util.intstr.IntOrString']!.format, 'int-or-string');
  assert.deepEqual(v2['io.k8s.api.core.v1.SeccompProfile']!['x-kubernetes-unions'], [{ discriminator: 'type', 'fields-to-discriminateBy': { localhostProfile: 'LocalhostProfile' } }]);
});

/** Every `$ref` in a document names a definition the document has. */
function danglingRefs(doc: unknown, defs: Record<string, unknown>, prefix: string): string[] {
  const out: string[] = [];
  for (const m of JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)) {
    const name = m[1]!.slice(prefix.length);
    if (!m[1]!.startsWith(prefix) || !defs[name]) out.push(m[1]!);
  }
  return [...new Set(out)];
}

test('every reference in the served documents resolves', () => {
  const catalog = builtinCatalog();
  const schemas = createProtobufSchemaSource();
  const v2 = swaggerV2(catalog, { schemas, patchContentTypes: [] }) as { definitions: Record<string, unknown> };
  assert.deepEqual(danglingRefs(v2, v2.definitions, '#/definitions/'), []);
  for (const key of v3Keys(catalog)) {
    const doc = v3Document(catalog, key, { schemas, patchContentTypes: [] }) as { components: { schemas: Record<string, unknown> } };
    assert.deepEqual(danglingRefs(doc, doc.components.schemas, '#/components/schemas/'), [], key);
  }
});

test('served kinds get their real schema with GVK in both dialects', () => {
  const catalog = builtinCatalog();
  const schemas = createProtobufSchemaSource();
  const v2 = swaggerV2(catalog, { schemas, patchContentTypes: [] }) as { definitions: Record<string, Schema> };
  const dep = v2.definitions['io.k8s.api.apps.v1.Deployment']!;
  assert.deepEqual(dep['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
  assert.equal(dep['x-kubernetes-preserve-unknown-fields'], undefined);
  assert.deepEqual(v2.definitions['io.k8s.api.apps.v1.DeploymentList']!['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'DeploymentList', version: 'v1' }]);
  assert.ok(props(v2.definitions['io.k8s.api.apps.v1.DeploymentSpec']).replicas);
  // A kind referenced from another group's type keeps its GVK (StatefulSet's volumeClaimTemplates).
  const apps = v3Document(catalog, 'apis/apps/v1', { schemas, patchContentTypes: [] }) as { components: { schemas: Record<string, Schema> } };
  assert.deepEqual(apps.components.schemas['io.k8s.api.core.v1.PersistentVolumeClaim']!['x-kubernetes-group-version-kind'], [{ group: '', kind: 'PersistentVolumeClaim', version: 'v1' }]);
  // No `default` in Swagger 2.0 (kube's v2 carries none), but a property named "default" survives.
  assert.ok(!JSON.stringify(v2.definitions).includes('"default":{}'));
  assert.ok(props(v2.definitions['io.k8s.api.core.v1.LimitRangeItem']).default);
});
