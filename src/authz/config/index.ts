/**
 * `--authorization-config`: the AuthorizationConfiguration file (./load.ts) becomes the request authorizer
 * (./build.ts). The file is checked again when it changes and every 60 s; a changed file that fails to load or
 * validate is logged and the previous chain stays in force. Swaps are atomic: a request sees one chain.
 *
 * Mutually exclusive with `--authorization-mode` and `--authorization-webhook-*` (kube's message is
 * AUTHORIZATION_CONFIG_EXCLUSIVE below; the CLI enforces it).
 */
import { watch, watchFile, unwatchFile, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Authorizer } from '../../request/authorizer.ts';
import type { AuthorizationDeps, RequestAuthorization } from '../deps.ts';
import { parseAuthorizationConfig } from './load.ts';
import { buildChain, ModeCache } from './build.ts';

export { parseAuthorizationConfig, loadAuthorizationConfig, AuthorizationConfigError, KNOWN_TYPES } from './load.ts';

export const AUTHORIZATION_CONFIG_EXCLUSIVE = '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined';
export const RELOAD_INTERVAL_MS = 60_000;

export interface ConfigFileOptions {
  /** Poll interval (default 60 s). */
  readonly reloadIntervalMs?: number;
}

export async function authorizationFromConfigFile(file: string, deps: AuthorizationDeps, o: ConfigFileOptions = {}): Promise<RequestAuthorization> {
  const stops: (() => Promise<void>)[] = [];
  const readies: (() => Promise<void>)[] = [];
  const modeDeps = { ...deps, onStop: (f: () => Promise<void>) => stops.push(f), onReady: (f: () => Promise<void>) => readies.push(f) };
  const modes = new ModeCache(modeDeps);
  const stopAll = async (): Promise<void> => {
    for (const s of stops.reverse()) await s();
  };

  let lastText: string;
  let current: Authorizer;
  let required: ReadonlySet<string>;
  try {
    lastText = await readFile(file, 'utf8');
    const entries = await parseAuthorizationConfig(lastText);
    required = new Set(entries.filter((e) => e.type !== 'Webhook').map((e) => e.type));
    current = await buildChain(entries, modes, modeDeps);
  } catch (e) {
    await stopAll();
    throw new Error(`--authorization-config: ${(e as Error).message}`);
  }

  let reloading: Promise<void> | undefined;
  let stopped = false;
  const check = async (): Promise<void> => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      deps.log(`authorization config: error reading ${file}: ${(e as Error).message}`);
      return;
    }
    if (text === lastText || stopped) return;
    try {
      const next = await buildChain(await parseAuthorizationConfig(text, required), modes, modeDeps, required);
      if (stopped) return;
      current = next;
      lastText = text;
      deps.log(`authorization config: reloaded ${file}`);
    } catch (e) {
      lastText = text; // do not log the same bad file every minute
      deps.log(`authorization config: error loading ${file}, keeping the previous configuration: ${(e as Error).message}`);
    }
  };
  const trigger = (): void => {
    if (stopped) return;
    reloading = (reloading ?? Promise.resolve()).then(check);
  };
  const timer = setInterval(trigger, o.reloadIntervalMs ?? RELOAD_INTERVAL_MS);
  timer.unref();
  let watcher: FSWatcher | undefined;
  let polling = false;
  const pollFile = (): void => {
    if (polling || stopped) return;
    polling = true;
    watchFile(file, { interval: 1000, persistent: false }, trigger);
  };
  try {
    // The directory, not the file: editors and ConfigMap mounts replace the file by renaming.
    watcher = watch(path.dirname(path.resolve(file)), (_ev, name) => {
      if (!name || name === path.basename(file) || name.startsWith('..')) trigger();
    });
    watcher.on('error', () => {
      watcher?.close();
      watcher = undefined;
      pollFile();
    });
  } catch {
    // No inotify (limits, unusual file systems): poll the file's stat instead.
    pollFile();
  }

  const authorizer: Authorizer = {
    name: 'authorization-config',
    authorize: (a) => current.authorize(a),
    rulesFor: (u, ns) => current.rulesFor ? current.rulesFor(u, ns) : { resourceRules: [], nonResourceRules: [], incomplete: true },
  };
  return {
    authorizer,
    ready: async () => { await Promise.all(readies.map((r) => r())); },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      watcher?.close();
      if (polling) unwatchFile(file, trigger);
      await reloading?.catch(() => undefined);
      await stopAll();
    },
  };
}
