/**
 * Descriptions of the built-in types and their fields, in our own words, for the OpenAPI documents (what
 * `kubectl explain` prints). One file per protobuf package (the names of src/api/protobuf/messages), each
 * calling `defineDocs` once:
 *
 * ```ts
 * defineDocs('apps.v1', {
 *   Deployment: {
 *     $: 'A managed set of identical pods, rolled out declaratively through ReplicaSets.',
 *     spec: 'The desired pods and how to replace them.',
 *   },
 * });
 * ```
 * `$` describes the type itself; every other key is a field's JSON name. A description says what the field is,
 * its unit, default and constraints, in one or two sentences.
 */

export type TypeDocs = Readonly<Record<string, string>>;

const packages = new Map<string, Readonly<Record<string, TypeDocs>>>();

export function defineDocs(pkg: string, types: Readonly<Record<string, TypeDocs>>): void {
  if (packages.has(pkg)) throw new Error(`docs for ${pkg} defined twice`);
  packages.set(pkg, types);
}

function split(fullName: string): [string, string] {
  const i = fullName.lastIndexOf('.');
  return [fullName.slice(0, i), fullName.slice(i + 1)];
}

/** The description of a message (`apps.v1.Deployment`), if written. */
export function typeDoc(fullName: string): string | undefined {
  const [pkg, type] = split(fullName);
  return packages.get(pkg)?.[type]?.['$'];
}

/** The description of one field of a message, by its JSON name, if written. */
export function fieldDoc(fullName: string, json: string): string | undefined {
  if (json === '$') return undefined;
  const [pkg, type] = split(fullName);
  return packages.get(pkg)?.[type]?.[json];
}

/** Every package with docs (tests check coverage against the type descriptions). */
export function documentedPackages(): string[] {
  return [...packages.keys()];
}
