/**
 * kube-apiserver's AuditOptions: the policy file, the log and webhook backends with their mode (batch,
 * blocking, blocking-strict), batching and truncation settings, their defaults, kube's validation messages, and
 * assembling the backend pipeline (truncate → mode → plugin), as kube's ApplyTo does.
 */
import { OptionsError } from '../machinery/errors.ts';
import { loadKubeconfigConnection } from '../webhook/kubeconfig.ts';
import { BufferedBackend, type BatchConfig } from './backends/buffered.ts';
import { fileSink, LOG_FORMATS, LogBackend, STDOUT_SINK, type LogFormat } from './backends/log.ts';
import { RotatingFile } from './backends/rotating-file.ts';
import { TruncateBackend, type TruncateConfig } from './backends/truncate.ts';
import { UnionBackend, WebhookBackend } from './backends/webhook.ts';
import { Auditing } from './auditing.ts';
import { loadPolicyFile } from './policy.ts';
import type { AuditEvent, Backend } from './types.ts';

export const AUDIT_MODES = ['batch', 'blocking', 'blocking-strict'] as const;
export type AuditMode = (typeof AUDIT_MODES)[number];

export interface AuditBatchOptions extends Omit<BatchConfig, 'asyncDelegate'> {
  readonly mode: string;
}

export interface AuditTruncateOptions extends TruncateConfig {
  readonly enabled: boolean;
}

export interface AuditLogOptions {
  /** `--audit-log-path`; `-` = standard output; unset = no log backend. */
  readonly path?: string;
  readonly maxAge: number;
  readonly maxBackups: number;
  readonly maxSize: number;
  readonly format: string;
  readonly compress: boolean;
  readonly version: string;
  readonly batch: AuditBatchOptions;
  readonly truncate: AuditTruncateOptions;
}

export interface AuditWebhookOptions {
  /** `--audit-webhook-config-file`: kubeconfig naming the receiver; unset = no webhook backend. */
  readonly configFile?: string;
  readonly initialBackoffMs: number;
  readonly version: string;
  readonly batch: AuditBatchOptions;
  readonly truncate: AuditTruncateOptions;
}

export interface AuditOptions {
  readonly policyFile?: string;
  readonly log: AuditLogOptions;
  readonly webhook: AuditWebhookOptions;
}

/** What a library caller may pass: any part, the rest defaulted. */
export interface AuditOptionsInput {
  readonly policyFile?: string;
  readonly log?: Partial<Omit<AuditLogOptions, 'batch' | 'truncate'>> & { batch?: Partial<AuditBatchOptions>; truncate?: Partial<AuditTruncateOptions> };
  readonly webhook?: Partial<Omit<AuditWebhookOptions, 'batch' | 'truncate'>> & { batch?: Partial<AuditBatchOptions>; truncate?: Partial<AuditTruncateOptions> };
}

export const AUDIT_VERSION = 'audit.k8s.io/v1';

/** kube's NewAuditTruncateOptions: off, 100 KiB events, 10 MiB batches. */
export const DEFAULT_TRUNCATE: AuditTruncateOptions = { enabled: false, maxEventSize: 100 * 1024, maxBatchSize: 10 * 1024 * 1024 };
/** kube's defaultLogBatchConfig under the log backend's default mode, blocking. */
export const DEFAULT_LOG_BATCH: AuditBatchOptions = { mode: 'blocking', bufferSize: 10_000, maxBatchSize: 1, maxBatchWaitMs: 0, throttleEnable: false, throttleQPS: 0, throttleBurst: 0 };
/** kube's defaultWebhookBatchConfig under the webhook's default mode, batch. */
export const DEFAULT_WEBHOOK_BATCH: AuditBatchOptions = { mode: 'batch', bufferSize: 10_000, maxBatchSize: 400, maxBatchWaitMs: 30_000, throttleEnable: true, throttleQPS: 10, throttleBurst: 15 };
/** kube's DefaultInitialBackoffDelay. */
export const DEFAULT_WEBHOOK_INITIAL_BACKOFF_MS = 10_000;

export function resolveAuditOptions(i: AuditOptionsInput = {}): AuditOptions {
  return {
    policyFile: i.policyFile || undefined,
    log: {
      path: i.log?.path || undefined, maxAge: i.log?.maxAge ?? 0, maxBackups: i.log?.maxBackups ?? 0, maxSize: i.log?.maxSize ?? 0,
      format: i.log?.format ?? 'json', compress: i.log?.compress ?? false, version: i.log?.version ?? AUDIT_VERSION,
      batch: { ...DEFAULT_LOG_BATCH, ...i.log?.batch }, truncate: { ...DEFAULT_TRUNCATE, ...i.log?.truncate },
    },
    webhook: {
      configFile: i.webhook?.configFile || undefined, initialBackoffMs: i.webhook?.initialBackoffMs ?? DEFAULT_WEBHOOK_INITIAL_BACKOFF_MS,
      version: i.webhook?.version ?? AUDIT_VERSION,
      batch: { ...DEFAULT_WEBHOOK_BATCH, ...i.webhook?.batch }, truncate: { ...DEFAULT_TRUNCATE, ...i.webhook?.truncate },
    },
  };
}

function validateBatch(plugin: string, b: AuditBatchOptions, errs: string[]): void {
  if (!(AUDIT_MODES as readonly string[]).includes(b.mode)) {
    errs.push(`invalid audit ${plugin} mode ${b.mode}, allowed modes are ${JSON.stringify(AUDIT_MODES.join(','))}`);
    return;
  }
  if (b.mode !== 'batch') return;
  if (b.bufferSize <= 0) errs.push(`invalid audit batch ${plugin} buffer size ${b.bufferSize}, must be a positive number`);
  if (b.maxBatchSize <= 0) errs.push(`invalid audit batch ${plugin} max batch size ${b.maxBatchSize}, must be a positive number`);
  if (b.throttleEnable) {
    if (b.throttleQPS <= 0) errs.push(`invalid audit batch ${plugin} throttle QPS ${b.throttleQPS}, must be a positive number`);
    if (b.throttleBurst <= 0) errs.push(`invalid audit batch ${plugin} throttle burst ${b.throttleBurst}, must be a positive number`);
  }
}

function validateTruncate(plugin: string, t: AuditTruncateOptions, errs: string[]): void {
  if (t.maxEventSize <= 0) errs.push(`invalid audit truncate ${plugin} max event size ${t.maxEventSize}, must be a positive number`);
  if (t.maxBatchSize < t.maxEventSize) errs.push(`invalid audit truncate ${plugin} max batch size ${t.maxBatchSize}, must be greater than max event size (${t.maxEventSize})`);
}

function validateVersion(v: string, errs: string[]): void {
  if (v !== AUDIT_VERSION) errs.push(`invalid group version, allowed versions are "[${AUDIT_VERSION}]"`);
}

/** kube's AuditOptions.Validate: only enabled backends are checked. */
export function validateAuditOptions(o: AuditOptions): string[] {
  const errs: string[] = [];
  if (o.log.path) {
    validateBatch('log', o.log.batch, errs);
    validateTruncate('log', o.log.truncate, errs);
    validateVersion(o.log.version, errs);
    if (!(LOG_FORMATS as readonly string[]).includes(o.log.format)) errs.push(`invalid audit log format ${o.log.format}, allowed formats are ${JSON.stringify(LOG_FORMATS.join(','))}`);
    if (o.log.maxAge < 0) errs.push(`--audit-log-maxage ${o.log.maxAge} can't be a negative number`);
    if (o.log.maxBackups < 0) errs.push(`--audit-log-maxbackup ${o.log.maxBackups} can't be a negative number`);
    if (o.log.maxSize < 0) errs.push(`--audit-log-maxsize ${o.log.maxSize} can't be a negative number`);
  }
  if (o.webhook.configFile) {
    validateBatch('webhook', o.webhook.batch, errs);
    validateTruncate('webhook', o.webhook.truncate, errs);
    validateVersion(o.webhook.version, errs);
  }
  return errs;
}

/** Blocking: waits for the backend but never fails the request (kube's ignoreErrorsBackend). */
class IgnoreErrors implements Backend {
  readonly name: string;
  constructor(private readonly delegate: Backend) {
    this.name = `ignoreErrors<${delegate.name}>`;
  }
  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean> {
    const r = this.delegate.processEvents(events);
    return typeof r === 'boolean' ? true : r.then(() => true);
  }
  shutdown(): Promise<void> {
    return this.delegate.shutdown();
  }
}

function wrapMode(b: Backend, o: AuditBatchOptions, asyncDelegate: boolean, log: (line: string) => void): Backend {
  if (o.mode === 'blocking-strict') return b;
  if (o.mode === 'blocking') return new IgnoreErrors(b);
  return new BufferedBackend(b, { ...o, asyncDelegate }, log);
}

function wrapTruncate(b: Backend, t: AuditTruncateOptions, log: (line: string) => void): Backend {
  return t.enabled ? new TruncateBackend(b, t, log) : b;
}

/**
 * Validates, reads the policy and opens the backends. Undefined when auditing is off: no policy file, or no
 * backend (kube then records nothing). Throws OptionsError with kube's messages for anything wrong.
 */
export async function createAuditing(input: AuditOptionsInput | undefined, log: (line: string) => void): Promise<Auditing | undefined> {
  const o = resolveAuditOptions(input);
  const errs = validateAuditOptions(o);
  if (errs.length) throw new OptionsError(errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);
  if (!o.policyFile) {
    if (o.log.path) log('No audit policy file provided, no events will be recorded for log backend');
    if (o.webhook.configFile) log('No audit policy file provided, no events will be recorded for webhook backend');
    return undefined;
  }
  let policy;
  try {
    policy = loadPolicyFile(o.policyFile, log);
  } catch (e) {
    throw new OptionsError(`loading audit policy file: ${(e as Error).message}`);
  }
  const backends: Backend[] = [];
  if (o.log.path) {
    let sink = STDOUT_SINK;
    if (o.log.path !== '-') {
      const file = new RotatingFile(o.log.path, { maxSizeMB: o.log.maxSize, maxBackups: o.log.maxBackups, maxAgeDays: o.log.maxAge, compress: o.log.compress });
      try {
        file.ensure();
      } catch (e) {
        throw new OptionsError(`ensureLogFile: ${(e as Error).message}`);
      }
      sink = fileSink(file);
    }
    const logBackend = new LogBackend(sink, o.log.format as LogFormat, log);
    backends.push(wrapTruncate(wrapMode(logBackend, o.log.batch, false, log), o.log.truncate, log));
  }
  if (o.webhook.configFile) {
    let connection;
    try {
      connection = await loadKubeconfigConnection(o.webhook.configFile);
    } catch (e) {
      throw new OptionsError(`initializing audit webhook: ${(e as Error).message}`);
    }
    const webhook = new WebhookBackend(connection, o.webhook.initialBackoffMs, log);
    backends.push(wrapTruncate(wrapMode(webhook, o.webhook.batch, true, log), o.webhook.truncate, log));
  }
  if (!backends.length) return undefined;
  return new Auditing(policy, backends.length === 1 ? backends[0]! : new UnionBackend(backends), log);
}
