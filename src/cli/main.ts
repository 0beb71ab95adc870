/**
 * The `keelson` command: parse kube-apiserver flags → start → print `export KUBECONFIG=<path>` → serve until
 * SIGTERM/SIGINT, then shut down gracefully (readiness fails, `--shutdown-delay-duration`, listeners close,
 * watches end, the store flushes) and exit 0. Bad flags print `Error: <why>` and exit 1.
 */
import { FlagError } from './pflag.ts';
import { parseCommandLine, usage } from './flags.ts';
import { OptionsError } from '../machinery/errors.ts';
import { versionInfo } from '../endpoints/version.ts';
import { FeatureGateError, FeatureGates } from '../features/gates.ts';
import { Logger } from '../machinery/logging.ts';

export interface MainIo {
  readonly stdout: (s: string) => void;
  readonly stderr: (s: string) => void;
  /** Resolves when the process should stop (default: SIGTERM or SIGINT). */
  readonly untilSignal?: () => Promise<string>;
  /** Called once the server is ready (the launcher then saves its code cache). */
  readonly onReady?: () => void;
}

const defaultIo: MainIo = {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
};

function waitForSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (sig: NodeJS.Signals): void => {
      process.off('SIGTERM', on);
      process.off('SIGINT', on);
      resolve(sig);
    };
    process.on('SIGTERM', on);
    process.on('SIGINT', on);
  });
}

/** The RuntimeConfigError message `builtinCatalog` raises for these settings, or undefined when they are valid. */
async function checkRuntimeConfig(runtimeConfig: Record<string, string> | undefined): Promise<string | undefined> {
  // Imported lazily, like the server, so `--help` stays light.
  const { builtinCatalog } = await import('../registry/resources/groups/index.ts');
  const { RuntimeConfigError } = await import('../api/resources/runtime-config.ts');
  try {
    builtinCatalog({ runtimeConfig });
    return undefined;
  } catch (err) {
    if (err instanceof RuntimeConfigError) return err.message;
    throw err;
  }
}

/** Runs the command; resolves with the exit code once the server has stopped. */
export async function main(argv: readonly string[] = process.argv.slice(2), io: MainIo = defaultIo): Promise<number> {
  // Subcommands that move a store's data (`keelson migrate`, `keelson snapshot`); anything else is the server.
  if (argv[0] === 'migrate' || argv[0] === 'snapshot') {
    const { runStorageCommand } = await import('./storage-commands.ts');
    return (await runStorageCommand(argv[0], argv.slice(1), io))!;
  }
  let cfg;
  try {
    cfg = parseCommandLine(argv);
  } catch (err) {
    if (err instanceof FlagError) {
      io.stderr(`Error: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  if (cfg.help) {
    io.stdout(usage());
    return 0;
  }
  if (cfg.version) {
    io.stdout(`Kubernetes ${versionInfo().gitVersion}\n`);
    return 0;
  }
  // One logger for the process: klog text or JSON on stderr, at -v.
  const logger = new Logger({ verbosity: cfg.logging.verbosity, format: cfg.logging.format, write: (line) => io.stderr(`${line}\n`) });
  const log = logger.sink('keelson');
  for (const n of cfg.notices) logger.line('options.ts', `W ${n}`);
  // A bad --runtime-config is a flag error: report it before anything is written or opened (PKI, store).
  const runtimeConfigError = await checkRuntimeConfig(cfg.options.runtimeConfig);
  if (runtimeConfigError !== undefined) {
    io.stderr(`Error: ${runtimeConfigError}\n`);
    return 1;
  }
  // --feature-gates: unknown or locked gates are flag errors; deprecated and GA gates warn as klog does.
  try {
    FeatureGates.create(cfg.options.featureGates ?? {}, { warn: (w) => logger.line('feature_gate.ts', `W ${w}`) });
  } catch (err) {
    if (!(err instanceof FeatureGateError)) throw err;
    io.stderr(`Error: ${err.message}\n`);
    return 1;
  }
  // Imported here so `--help` and flag errors do not load storage engines.
  // Listen for signals before starting, so a SIGTERM during start still ends in a clean stop.
  const signalled = (io.untilSignal ?? waitForSignal)();
  const { startServer } = await import('../controlplane/start.ts');
  let server;
  try {
    server = await startServer({ ...cfg.options, log, logger });
  } catch (err) {
    if (err instanceof OptionsError) {
      io.stderr(`Error: ${err.message}\n`);
      return 1;
    }
    io.stderr(`Error: ${(err as Error).message}\n`);
    return 1;
  }
  log(`Serving securely on ${server.url}`);
  io.onReady?.();
  if (server.kubeconfigPath) io.stdout(`export KUBECONFIG=${server.kubeconfigPath}\n`);
  const sig = await signalled;
  log(`Received ${sig}, shutting down`);
  await server.stop();
  return 0;
}
