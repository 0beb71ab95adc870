/**
 * Builds the admission chain from the flags: the enabled plugins in kube's order, each made by its factory with
 * its configuration. Built after the registry (plugins read through it) and handed to the registry as a getter.
 */
import { OptionsError } from '../machinery/errors.ts';
import { AdmissionChain, type AdmissionMetricsSink } from './chain.ts';
import { enabledPlugins, readAdmissionConfig, type AdmissionOptions } from './config.ts';
import { pluginFactory } from './plugin-catalog.ts';
import type { AdmissionPlugin, PluginContext } from './types.ts';
import './plugins/index.ts';

export { AdmissionChain, type AdmissionMetricsSink } from './chain.ts';
export type { AdmissionOptions } from './config.ts';

export interface AdmissionDeps extends Omit<PluginContext, 'config' | 'configDir'> {
  readonly options: AdmissionOptions;
  /** Admission latencies (the server's Metrics); none in tests that do not care. */
  readonly metrics?: AdmissionMetricsSink;
}

/** Plugins kube has that Keelson refuses by name when asked for (instead of pretending to run them). */
const REFUSED: Readonly<Record<string, string>> = {
  ImagePolicyWebhook: 'ImagePolicyWebhook is not supported by Keelson (it needs an image review backend); use a ValidatingAdmissionWebhook',
};

export async function buildAdmission(deps: AdmissionDeps): Promise<AdmissionChain> {
  const names = enabledPlugins(deps.options);
  const configs = readAdmissionConfig(deps.options.configFile);
  const plugins: AdmissionPlugin[] = [];
  for (const name of names) {
    if (REFUSED[name]) throw new OptionsError(REFUSED[name]);
    const factory = pluginFactory(name);
    // Every plugin kube-apiserver v1.33 knows has a module here (or is refused by name above); a missing
    // factory is a build defect, never something to skip silently.
    if (!factory) throw new Error(`admission plugin ${JSON.stringify(name)} has no factory registered`);
    plugins.push(await factory({ ...deps, config: configs.get(name), configDir: configs.dirOf(name) }));
  }
  return new AdmissionChain(plugins, deps.metrics);
}
