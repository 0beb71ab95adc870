// Protobuf message descriptions of apiextensions.k8s.io/v1 (field numbers, wire types, Go pointer-ness, inline
// embedding, merge markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation. JSON and the
// JSONSchemaPropsOr* unions have JSON forms of their own (special forms).
import { definePackage } from '../schema.ts';

definePackage('apiextensions.v1', {
  ConversionRequest: { uid: '1 !string', desiredAPIVersion: '2 !string', objects: '3 ![]RawExtension list=atomic' },
  ConversionResponse: { uid: '1 !string', convertedObjects: '2 ![]RawExtension list=atomic', result: '3 !Status' },
  ConversionReview: { request: '1 *ConversionRequest', response: '2 *ConversionResponse' },
  CustomResourceColumnDefinition: { name: '1 !string', type: '2 !string', format: '3 string', description: '4 string', priority: '5 int32', jsonPath: '6 !string' },
  CustomResourceConversion: { strategy: '1 !string', webhook: '2 *WebhookConversion' },
  CustomResourceDefinition: { metadata: '1 ObjectMeta', spec: '2 !CustomResourceDefinitionSpec', status: '3 CustomResourceDefinitionStatus' },
  CustomResourceDefinitionCondition: { type: '1 !string', status: '2 !string', lastTransitionTime: '3 Time', reason: '4 string', message: '5 string' },
  CustomResourceDefinitionList: { metadata: '1 ListMeta', items: '2 ![]CustomResourceDefinition' },
  CustomResourceDefinitionNames: { plural: '1 !string', singular: '2 string', shortNames: '3 []string list=atomic', kind: '4 !string', listKind: '5 string', categories: '6 []string list=atomic' },
  CustomResourceDefinitionSpec: { group: '1 !string', names: '3 !CustomResourceDefinitionNames', scope: '4 !string', versions: '7 ![]CustomResourceDefinitionVersion list=atomic', conversion: '9 *CustomResourceConversion', preserveUnknownFields: '10 bool' },
  CustomResourceDefinitionStatus: { conditions: '1 ![]CustomResourceDefinitionCondition list=map(type)', acceptedNames: '2 !CustomResourceDefinitionNames', storedVersions: '3 ![]string list=atomic' },
  CustomResourceDefinitionVersion: { name: '1 !string', served: '2 !bool', storage: '3 !bool', deprecated: '7 bool', deprecationWarning: '8 *string', schema: '4 *CustomResourceValidation', subresources: '5 *CustomResourceSubresources', additionalPrinterColumns: '6 []CustomResourceColumnDefinition list=atomic', selectableFields: '9 []SelectableField list=atomic' },
  CustomResourceSubresourceScale: { specReplicasPath: '1 !string', statusReplicasPath: '2 !string', labelSelectorPath: '3 *string' },
  CustomResourceSubresourceStatus: {  },
  CustomResourceSubresources: { status: '1 *CustomResourceSubresourceStatus', scale: '2 *CustomResourceSubresourceScale' },
  CustomResourceValidation: { openAPIV3Schema: '1 *JSONSchemaProps' },
  ExternalDocumentation: { description: '1 string', url: '2 string' },
  JSON: { "-": '1 !bytes' },
  JSONSchemaProps: { id: '1 string', "$schema": '2 string', "$ref": '3 *string', description: '4 string', type: '5 string', format: '6 string', title: '7 string', default: '8 *JSON', maximum: '9 *double', exclusiveMaximum: '10 bool', minimum: '11 *double', exclusiveMinimum: '12 bool', maxLength: '13 *int64', minLength: '14 *int64', pattern: '15 string', maxItems: '16 *int64', minItems: '17 *int64', uniqueItems: '18 bool', multipleOf: '19 *double', enum: '20 []JSON list=atomic', maxProperties: '21 *int64', minProperties: '22 *int64', required: '23 []string list=atomic', items: '24 *JSONSchemaPropsOrArray', allOf: '25 []JSONSchemaProps list=atomic', oneOf: '26 []JSONSchemaProps list=atomic', anyOf: '27 []JSONSchemaProps list=atomic', not: '28 *JSONSchemaProps', properties: '29 map<string,JSONSchemaProps>', additionalProperties: '30 *JSONSchemaPropsOrBool', patternProperties: '31 map<string,JSONSchemaProps>', dependencies: '32 map<string,JSONSchemaPropsOrStringArray>', additionalItems: '33 *JSONSchemaPropsOrBool', definitions: '34 map<string,JSONSchemaProps>', externalDocs: '35 *ExternalDocumentation', example: '36 *JSON', nullable: '37 bool', "x-kubernetes-preserve-unknown-fields": '38 *bool', "x-kubernetes-embedded-resource": '39 bool', "x-kubernetes-int-or-string": '40 bool', "x-kubernetes-list-map-keys": '41 []string list=atomic', "x-kubernetes-list-type": '42 *string', "x-kubernetes-map-type": '43 *string', "x-kubernetes-validations": '44 []ValidationRule list=map(rule) patch=merge(rule)' },
  JSONSchemaPropsOrArray: { schema: '1 *JSONSchemaProps', jSONSchemas: '2 []JSONSchemaProps list=atomic' },
  JSONSchemaPropsOrBool: { allows: '1 bool', schema: '2 *JSONSchemaProps' },
  JSONSchemaPropsOrStringArray: { schema: '1 *JSONSchemaProps', property: '2 []string list=atomic' },
  SelectableField: { jsonPath: '1 !string' },
  ServiceReference: { namespace: '1 !string', name: '2 !string', path: '3 *string', port: '4 *int32' },
  ValidationRule: { rule: '1 !string', message: '2 string', messageExpression: '3 string', reason: '4 *string', fieldPath: '5 string', optionalOldSelf: '6 *bool' },
  WebhookClientConfig: { url: '3 *string', service: '1 *ServiceReference', caBundle: '2 bytes' },
  WebhookConversion: { clientConfig: '2 *WebhookClientConfig', conversionReviewVersions: '3 ![]string list=atomic' },
}, { JSON: 'json', JSONSchemaPropsOrBool: 'schemaorbool', JSONSchemaPropsOrArray: 'schemaorarray', JSONSchemaPropsOrStringArray: 'schemaorstringarray' });
