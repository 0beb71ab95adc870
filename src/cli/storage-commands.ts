/**
 * `keelson migrate` and `keelson snapshot`: moving a store's data, run as subcommands of `keelson`.
 * Each prints a summary on stdout and `Error: <why>` on stderr with exit code 1 for bad flags and any failure
 * (nothing is reported as done unless all of it was).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Store } from '../storage/interface.ts';

const MIGRATE_USAGE = `Copy every object between Keelson stores: the embedded data directory and etcd, either way.

Usage:
  keelson migrate (--from-data-dir DIR | --from-etcd-servers URLS) (--to-data-dir DIR | --to-etcd-servers URLS) [flags]

Source and target (exactly one of each):
      --from-data-dir string        embedded store to read (the server using it must be stopped)
      --from-etcd-servers strings   etcd client URLs to read, comma separated
      --from-etcd-prefix string     etcd prefix of the source, as --etcd-prefix (default "/registry")
      --from-etcd-cafile, --from-etcd-certfile, --from-etcd-keyfile string   TLS to the source etcd
      --to-data-dir string          embedded store to write (created when missing)
      --to-etcd-servers strings     etcd client URLs to write, comma separated
      --to-etcd-prefix string       etcd prefix of the target (default "/registry")
      --to-etcd-cafile, --to-etcd-certfile, --to-etcd-keyfile string         TLS to the target etcd

Flags:
      --force    replace the target's objects instead of refusing a non-empty target
  -h, --help     this help

Values are copied byte for byte and written in the source's resourceVersion order; the target assigns new
resourceVersions (as an etcd restore does), so clients must re-list. Stop the servers on the source first:
writes made after the copy are not in the target.
`;

const SNAPSHOT_USAGE = `Save or restore a snapshot of an embedded data directory (database, PKI and keys).

Usage:
  keelson snapshot save FILE [--data-dir DIR] [--force]       consistent while a server runs on DIR
  keelson snapshot restore FILE --data-dir DIR [--force]      DIR must be empty unless --force; no server on it

Flags:
      --data-dir string   the data directory (save: default "./keelson-data")
      --force             save: overwrite FILE; restore: replace the contents of DIR
  -h, --help              this help
`;

/** Where the commands write (main.ts's MainIo has the same shape). */
export interface CommandIo {
  readonly stdout: (s: string) => void;
  readonly stderr: (s: string) => void;
}

class UsageError extends Error {}

function parse(argv: readonly string[], options: Record<string, { type: 'string' | 'boolean'; short?: string }>) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
}

interface Endpoint {
  readonly describe: string;
  open(): Promise<Store>;
  /** Writes committed in call order may be pipelined (the sqlite queue); etcd's may not. */
  readonly ordered: boolean;
}

function endpointOf(side: 'from' | 'to', v: Record<string, string | boolean | undefined>): Endpoint {
  const dataDir = v[`${side}-data-dir`] as string | undefined;
  const servers = v[`${side}-etcd-servers`] as string | undefined;
  if ((dataDir === undefined) === (servers === undefined)) {
    throw new UsageError(`exactly one of --${side}-data-dir and --${side}-etcd-servers is required`);
  }
  for (const f of ['etcd-prefix', 'etcd-cafile', 'etcd-certfile', 'etcd-keyfile']) {
    if (dataDir !== undefined && v[`${side}-${f}`] !== undefined) throw new UsageError(`--${side}-${f} applies to --${side}-etcd-servers only`);
  }
  if (dataDir !== undefined) {
    if (!dataDir) throw new UsageError(`--${side}-data-dir must not be empty`);
    const dir = resolve(dataDir);
    return {
      describe: `data dir ${dir}`,
      ordered: true,
      async open() {
        const { SQLITE_FILE, openStore } = await import('../storage/factory.ts');
        // Opening creates a database; a source that has none is a typo, not an empty store.
        if (side === 'from' && !existsSync(join(dir, SQLITE_FILE))) throw new Error(`no Keelson store in ${dir} (${SQLITE_FILE} is missing)`);
        return openStore({ kind: 'sqlite', dataDir: dir, keyPrefix: '/registry/' });
      },
    };
  }
  const urls = servers!.split(',').map((s) => s.trim()).filter(Boolean);
  if (!urls.length) throw new UsageError(`--${side}-etcd-servers needs at least one URL`);
  for (const u of urls) if (!/^https?:\/\/[^/]+\/?$/.test(u)) throw new UsageError(`--${side}-etcd-servers: ${JSON.stringify(u)} is not an etcd client URL (http://host:port)`);
  const prefix = (v[`${side}-etcd-prefix`] as string | undefined) ?? '/registry';
  return {
    describe: `etcd ${urls.join(',')} prefix ${prefix}`,
    ordered: false,
    async open() {
      const { openEtcdStore } = await import('../storage/etcd/etcd-store.ts');
      return openEtcdStore({
        servers: urls, prefix, keyPrefix: '/registry/', compactionIntervalMs: 0,
        caFile: v[`${side}-etcd-cafile`] as string | undefined, certFile: v[`${side}-etcd-certfile`] as string | undefined, keyFile: v[`${side}-etcd-keyfile`] as string | undefined,
        // Old-layout keys are what a migration in place moves away from (copy.ts skips them), not a reason to stop.
        legacyLayoutCheck: false,
      });
    },
  };
}

const str = { type: 'string' } as const;

async function migrate(argv: readonly string[], io: CommandIo): Promise<number> {
  const sides = ['from', 'to'] as const;
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } };
  for (const s of sides) for (const f of ['data-dir', 'etcd-servers', 'etcd-prefix', 'etcd-cafile', 'etcd-certfile', 'etcd-keyfile']) options[`${s}-${f}`] = str;
  const { values, positionals } = parse(argv, options);
  if (values['help']) {
    io.stdout(MIGRATE_USAGE);
    return 0;
  }
  if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const from = endpointOf('from', values);
  const to = endpointOf('to', values);
  if (from.describe === to.describe) throw new UsageError('the source and the target are the same store');
  const { copyStore } = await import('../storage/migrate/copy.ts');
  const source = await from.open();
  try {
    const target = await to.open();
    try {
      io.stdout(`Copying from ${from.describe} to ${to.describe}\n`);
      const started = Date.now();
      const s = await copyStore(source, target, { force: values['force'] === true, inFlight: to.ordered ? 256 : 1, log: (l) => io.stdout(`  ${l}\n`) });
      const rows = [...s.perResource].sort(([a], [b]) => a.localeCompare(b)).map(([r, n]) => `  ${r}: ${n}\n`).join('');
      io.stdout(
        `${rows}Copied ${s.keys} keys (${s.bytes} bytes of values) as of source revision ${s.sourceRevision} in ${Date.now() - started} ms` +
          `${s.replaced ? `, replacing ${s.replaced} keys the target held` : ''}.\n` +
          'resourceVersions differ in the target (their order is kept): clients must re-list.\n',
      );
      return 0;
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

async function snapshot(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parse(argv, { 'data-dir': str, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } });
  if (values['help']) {
    io.stdout(SNAPSHOT_USAGE);
    return 0;
  }
  const [verb, file, ...rest] = positionals;
  if (verb !== 'save' && verb !== 'restore') throw new UsageError(`keelson snapshot needs "save" or "restore", got ${JSON.stringify(verb ?? '')}`);
  if (!file) throw new UsageError(`keelson snapshot ${verb} needs a FILE`);
  if (rest.length) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  const force = values['force'] === true;
  const { restoreSnapshot, saveSnapshot } = await import('../storage/sqlite/snapshot.ts');
  if (verb === 'save') {
    const dir = resolve((values['data-dir'] as string | undefined) ?? 'keelson-data');
    const s = saveSnapshot(dir, file, { force });
    io.stdout(`Saved ${resolve(file)}: ${s.keys} keys at revision ${s.revision}, ${s.files.length} files of ${dir} (${s.files.join(', ')})\n`);
    return 0;
  }
  const dir = values['data-dir'] as string | undefined;
  if (!dir) throw new UsageError('keelson snapshot restore needs --data-dir');
  const s = await restoreSnapshot(file, dir, { force });
  io.stdout(`Restored ${resolve(file)} into ${resolve(dir)}: ${s.keys} keys at revision ${s.revision}, ${s.files.length} files\n`);
  return 0;
}

/** Runs `keelson <command> ...` for the storage commands; undefined when `command` is not one of them. */
export async function runStorageCommand(command: string, argv: readonly string[], io: CommandIo): Promise<number | undefined> {
  const run = command === 'migrate' ? migrate : command === 'snapshot' ? snapshot : undefined;
  if (!run) return undefined;
  try {
    return await run(argv, io);
  } catch (err) {
    const usage = err instanceof UsageError ? `\nRun 'keelson ${command} --help' for usage.` : '';
    io.stderr(`Error: ${(err as Error).message}${usage}\n`);
    return 1;
  }
}
