/**
 * `--enable-admission-plugins`, `--disable-admission-plugins` and `--admission-control-config-file`
 * (AdmissionConfiguration, apiserver.config.k8s.io/v1 — also v1alpha1 and the older apiserver.k8s.io/v1alpha1):
 * which plugins run, and each plugin's configuration, embedded (`configuration`) or in a file (`path`, relative
 * to the configuration file). Errors are kube-apiserver's words; the server refuses to start with them.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { OptionsError } from '../machinery/errors.ts';
import { DEFAULT_ON_PLUGINS, ORDERED_PLUGINS } from './plugin-catalog.ts';

export interface AdmissionOptions {
  /** `--enable-admission-plugins`. */
  readonly enablePlugins?: readonly string[];
  /** `--disable-admission-plugins`. */
  readonly disablePlugins?: readonly string[];
  /** `--admission-control-config-file`. */
  readonly configFile?: string;
  /** `--default-not-ready-toleration-seconds` (DefaultTolerationSeconds; default 300). */
  readonly defaultNotReadyTolerationSeconds?: number;
  /** `--default-unreachable-toleration-seconds` (DefaultTolerationSeconds; default 300). */
  readonly defaultUnreachableTolerationSeconds?: number;
}

const CONFIG_GROUPS = new Set(['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1alpha1', 'apiserver.k8s.io/v1alpha1']);

/** The enabled plugin names in chain order; throws OptionsError like kube's AdmissionOptions.Validate. */
export function enabledPlugins(o: AdmissionOptions): string[] {
  const known = new Set(ORDERED_PLUGINS);
  const errs: string[] = [];
  for (const n of o.enablePlugins ?? []) if (!known.has(n)) errs.push(`enable-admission-plugins plugin ${JSON.stringify(n)} is unknown`);
  for (const n of o.disablePlugins ?? []) if (!known.has(n)) errs.push(`disable-admission-plugins plugin ${JSON.stringify(n)} is unknown`);
  const enable = new Set(o.enablePlugins ?? []);
  const both = [...new Set(o.disablePlugins ?? [])].filter((n) => enable.has(n)).sort();
  if (both.length) errs.push(`[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  if (errs.length) throw new OptionsError(errs.join(', '));
  const disable = new Set(o.disablePlugins ?? []);
  return ORDERED_PLUGINS.filter((n) => !disable.has(n) && (enable.has(n) || DEFAULT_ON_PLUGINS.has(n)));
}

export interface PluginConfigs {
  /** The plugin's configuration object, if the file gives one. */
  get(name: string): unknown;
  /** Where the configuration of `name` came from: relative paths in it resolve here. */
  dirOf(name: string): string;
}

/** Reads `--admission-control-config-file` (none: every plugin unconfigured). */
export function readAdmissionConfig(file: string | undefined): PluginConfigs {
  const configs = new Map<string, unknown>();
  const dirs = new Map<string, string>();
  const base = file ? dirname(resolve(file)) : process.cwd();
  if (file) {
    let doc: unknown;
    try {
      doc = parseYaml(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new OptionsError(`failed to read plugin config: unable to read admission control configuration from ${JSON.stringify(file)} [${(e as Error).message}]`);
    }
    const d = (doc ?? {}) as { apiVersion?: unknown; kind?: unknown; plugins?: unknown };
    if (d.kind !== 'AdmissionConfiguration' || typeof d.apiVersion !== 'string' || !CONFIG_GROUPS.has(d.apiVersion)) {
      throw new OptionsError(`failed to read plugin config: unable to read admission control configuration from ${JSON.stringify(file)}: `
        + `expected kind AdmissionConfiguration in apiserver.config.k8s.io/v1, got ${String(d.apiVersion ?? '')}, Kind=${String(d.kind ?? '')}`);
    }
    for (const p of Array.isArray(d.plugins) ? d.plugins : []) {
      const entry = (p ?? {}) as { name?: unknown; path?: unknown; configuration?: unknown };
      if (typeof entry.name !== 'string' || !entry.name) throw new OptionsError(`failed to read plugin config: ${file}: a plugin entry has no name`);
      if (entry.configuration !== undefined && entry.configuration !== null) {
        configs.set(entry.name, entry.configuration);
        dirs.set(entry.name, base);
      } else if (typeof entry.path === 'string' && entry.path) {
        const path = isAbsolute(entry.path) ? entry.path : resolve(base, entry.path);
        try {
          configs.set(entry.name, parseYaml(readFileSync(path, 'utf8')));
        } catch (e) {
          throw new OptionsError(`failed to read plugin config: couldn't open admission plugin configuration ${path}: ${(e as Error).message}`);
        }
        dirs.set(entry.name, dirname(path));
      }
    }
  }
  return { get: (n) => configs.get(n), dirOf: (n) => dirs.get(n) ?? base };
}
