/**
 * The server's encryption at rest: the loaded EncryptionConfiguration, which storage keys it applies to, and
 * `--encryption-provider-config-automatic-reload` (the file is re-read when it changes, and at least every
 * `resyncMs`; a file that no longer loads keeps the previous configuration and is reported, as kube does).
 */
import { watch, type FSWatcher } from 'node:fs';
import { loadEncryptionConfig, readEncryptionConfigFile, type EncryptionConfig, type GroupResource, type LoadOptions } from './config.ts';
import type { Transformer } from './transformer.ts';
import type { TransformerForKey } from './transforming-store.ts';

export interface EncryptionAtRestOptions extends LoadOptions {
  readonly file: string;
  readonly automaticReload?: boolean;
  /** How often the file is checked besides change notifications (kube: one minute). */
  readonly resyncMs?: number;
  readonly log?: (msg: string) => void;
}

/** Which group/resource a storage key belongs to (undefined: not an API object, left as it is). */
export type ResourceOfKey = (key: string) => GroupResource | undefined;

export class EncryptionAtRest {
  private timer: NodeJS.Timeout | undefined;
  private watcher: FSWatcher | undefined;
  private reloading: Promise<void> | undefined;
  private stopped = false;
  /** The last reload's outcome: undefined when it loaded (or nothing changed). */
  lastReloadError: string | undefined;

  private constructor(private config: EncryptionConfig, private readonly o: EncryptionAtRestOptions) {}

  /** Loads the file; a malformed one throws EncryptionConfigError (the server refuses to start). */
  static async open(o: EncryptionAtRestOptions): Promise<EncryptionAtRest> {
    const e = new EncryptionAtRest(await loadEncryptionConfig(o.file, { ...o, reload: o.automaticReload ?? false }), o);
    if (o.automaticReload) e.startReloading();
    return e;
  }

  /** The transformer choice for the store wrapper. Reads the current configuration on every call. */
  transformerForKey(resourceOf: ResourceOfKey): TransformerForKey {
    return (key: string): Transformer | undefined => {
      const gr = resourceOf(key);
      return gr ? this.config.transformerFor(gr) : undefined;
    };
  }

  /** kube's `kms-providers` health check: undefined when every KMS plugin is healthy. */
  kmsHealth(): string | undefined {
    const errs = this.config.kmsProviders.map((k) => k.health()).filter((e): e is string => e !== undefined);
    return errs.length === 0 ? undefined : errs.join('\n');
  }

  /** Whether a `kms-providers` check is served (KMS configured, or reload on: kube registers it then too). */
  get hasKmsCheck(): boolean {
    return this.config.kmsProviders.length > 0 || this.o.automaticReload === true;
  }

  private startReloading(): void {
    const kick = () => void this.reload();
    try {
      this.watcher = watch(this.o.file, kick);
      this.watcher.on('error', () => { /* the periodic check still runs */ });
      this.watcher.unref();
    } catch {
      // no change notifications here: the periodic check covers it
    }
    this.timer = setInterval(kick, this.o.resyncMs ?? 60_000);
    this.timer.unref();
  }

  /** Re-reads the file now; resolves when done (also used by tests instead of waiting for the timer). */
  reload(): Promise<void> {
    this.reloading ??= this.doReload().finally(() => { this.reloading = undefined; });
    return this.reloading;
  }

  private async doReload(): Promise<void> {
    if (this.stopped) return;
    try {
      const { hash } = await readEncryptionConfigFile(this.o.file, true);
      if (hash === this.config.hash) return;
      const next = await loadEncryptionConfig(this.o.file, { ...this.o, reload: true });
      if (this.stopped) {
        next.close();
        return;
      }
      const old = this.config;
      this.config = next;
      this.lastReloadError = undefined;
      // In-flight reads may still use the old KMS plugins for a moment.
      setTimeout(() => old.close(), 10_000).unref();
      this.o.log?.(`encryption provider configuration reloaded from ${this.o.file} (${next.hash})`);
    } catch (e) {
      this.lastReloadError = (e as Error).message;
      this.o.log?.(`failed to reload encryption provider configuration ${this.o.file}: ${this.lastReloadError}`);
    }
  }

  close(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.watcher?.close();
    this.config.close();
  }
}
