/** Field paths and field sets (structured-merge-diff's fieldpath package), with the schema-driven set of an object. */
export { FieldSet, type FieldsV1 } from './set.ts';
export {
  fieldElement, keyElement, valueElement, indexElement, compareElements, elementString, pathString, parseElement,
  type PathElement, type Path,
} from './element.ts';
export { fieldSetOf, listItemElement, ListItemError } from './from-value.ts';
export { ensureNamedFieldsAreMembers } from './named.ts';
export { goJson, goFormat, goQuote, compareValues, jsonEqual, smdValueString } from './value.ts';
