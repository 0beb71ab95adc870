/**
 * The Kubernetes v1.32 reference fixtures (recorded kube-apiserver answers and the published OpenAPI reduced to
 * facts), committed in this repository under test/fixtures/kube-v1.32 (see its README). Tests locate them here
 * and nowhere else.
 *
 * ```ts
 * const want = readKubeJson('responses/errors/401-bad-token.json');
 * const swagger = kubeReference('openapi/swagger.json');
 * ```
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** test/fixtures/kube-v1.32 in this repository, as an absolute path. */
export const KUBE_REFERENCE_DIR = join(import.meta.dirname, '../fixtures/kube-v1.32');

/** The absolute path of a fixture file or directory, e.g. `kubeReference('responses', 'table')`. */
export function kubeReference(...segments: string[]): string {
  return join(KUBE_REFERENCE_DIR, ...segments);
}

/** A fixture's text. */
export function readKubeText(...segments: string[]): string {
  return readFileSync(kubeReference(...segments), 'utf8');
}

/** A JSON fixture, parsed (typed as the caller says; `any` like JSON.parse by default). */
export function readKubeJson<T = any>(...segments: string[]): T {
  return JSON.parse(readKubeText(...segments)) as T;
}
