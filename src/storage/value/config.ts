/**
 * `--encryption-provider-config`: an apiserver.config.k8s.io/v1 EncryptionConfiguration, read as kube-apiserver
 * reads it (YAML or JSON, strict: unknown fields refused; kube's ValidateEncryptionConfiguration with its
 * messages, aggregated as `a` or `[a, b]`), and turned into one transformer per group/resource.
 *
 * Resource names: `secrets` (core), `deployments.apps`, `*.` (every core resource), `*.apps` (a whole group),
 * `*.*` (everything). An exact name wins over `*.<group>`, which wins over `*.*`; a rule listed after a wildcard
 * that already covers it is refused as masked.
 */
import { collectUnknownFields } from '../../machinery/strict-fields.ts';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { parseDuration } from '../../machinery/duration.ts';
import { field, OptionsError, type FieldError } from '../../machinery/errors.ts';
import { AesCbcTransformer, AesGcmTransformer } from './aes.ts';
import { grpcKmsService, KmsV2Transformer, type KmsService } from './kmsv2/envelope.ts';
import { SecretboxTransformer } from './secretbox.ts';
import { identityTransformer, PrefixTransformers, type PrefixTransformer, type Transformer } from './transformer.ts';

/** A malformed configuration file: the server refuses to start with this message. */
export class EncryptionConfigError extends OptionsError {
  override name = 'EncryptionConfigError';
}

export interface GroupResource { readonly group: string; readonly resource: string }

/** A loaded configuration: the transformer of each configured group/resource, and its KMS providers. */
export interface EncryptionConfig {
  /** sha256:<hex> of the file's bytes (kube's content hash; a reload with the same hash is a no-op). */
  readonly hash: string;
  /** The transformer for a resource, or undefined when no rule names it (kube's identity check applies). */
  transformerFor(gr: GroupResource): Transformer | undefined;
  readonly kmsProviders: readonly KmsV2Transformer[];
  close(): void;
}

export interface LoadOptions {
  /** The KMS v2 plugin client for an endpoint (tests may pass a fake). Default: gRPC over the unix socket. */
  readonly kmsService?: (endpoint: string, timeoutMs: number) => KmsService;
  /** Probe intervals of the KMS providers (kube: 60 s healthy, 10 s unhealthy). */
  readonly kmsHealthyIntervalMs?: number;
  readonly kmsUnhealthyIntervalMs?: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const FIELDS: Record<string, readonly string[]> = {
  '': ['apiVersion', 'kind', 'resources'],
  resource: ['resources', 'providers'],
  provider: ['aesgcm', 'aescbc', 'secretbox', 'identity', 'kms'],
  aes: ['keys'],
  key: ['name', 'secret'],
  identity: [],
  kms: ['apiVersion', 'name', 'cachesize', 'endpoint', 'timeout'],
};

function unknownFields(doc: Obj): string[] {
  const out: string[] = [];
  const check = (o: unknown, kind: string, prefix: string): void => collectUnknownFields(o, FIELDS[kind]!, prefix, out);
  check(doc, '', '');
  (Array.isArray(doc.resources) ? doc.resources : []).forEach((r, i) => {
    const rp = `resources[${i}].`;
    check(r, 'resource', rp);
    if (!isObj(r)) return;
    (Array.isArray(r.providers) ? r.providers : []).forEach((p, j) => {
      const pp = `${rp}providers[${j}].`;
      check(p, 'provider', pp);
      if (!isObj(p)) return;
      for (const k of ['aesgcm', 'aescbc', 'secretbox'] as const) {
        check(p[k], 'aes', `${pp}${k}.`);
        if (isObj(p[k]) && Array.isArray(p[k].keys)) (p[k].keys as unknown[]).forEach((key, n) => check(key, 'key', `${pp}${k}.keys[${n}].`));
      }
      check(p.identity, 'identity', `${pp}identity.`);
      check(p.kms, 'kms', `${pp}kms.`);
    });
  });
  return out;
}

// ---- the typed shape -----------------------------------------------------------------------------------------

interface Key { name: string; secret: string }
interface KmsConf { apiVersion: string; name: string; cachesize?: number; endpoint: string; timeoutMs: number; timeoutText: string }
interface Provider { aesgcm?: Key[]; aescbc?: Key[]; secretbox?: Key[]; identity?: true; kms?: KmsConf }
interface ResourceConf { resources: string[]; providers: Provider[] }

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : String(x))) : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

function keysOf(v: unknown): Key[] | undefined {
  if (v === undefined || v === null) return undefined;
  const keys = isObj(v) && Array.isArray(v.keys) ? v.keys : [];
  return keys.map((k) => ({ name: text(isObj(k) ? k.name : ''), secret: text(isObj(k) ? k.secret : '') }));
}

function typed(doc: Obj): ResourceConf[] {
  const resources = Array.isArray(doc.resources) ? doc.resources : [];
  return resources.map((r): ResourceConf => {
    const ro = isObj(r) ? r : {};
    const providers = (Array.isArray(ro.providers) ? ro.providers : []).map((p): Provider => {
      const po = isObj(p) ? p : {};
      const out: Provider = {};
      const g = keysOf(po.aesgcm); if (g) out.aesgcm = g;
      const c = keysOf(po.aescbc); if (c) out.aescbc = c;
      const s = keysOf(po.secretbox); if (s) out.secretbox = s;
      if (po.identity !== undefined && po.identity !== null) out.identity = true;
      if (isObj(po.kms)) {
        const k = po.kms;
        const apiVersion = text(k.apiVersion) || 'v1';
        const timeoutText = text(k.timeout) || '3s';
        const timeoutMs = parseDuration(timeoutText);
        if (timeoutMs === undefined) throw new EncryptionConfigError(`time: invalid duration ${JSON.stringify(timeoutText)}`);
        out.kms = {
          apiVersion, name: text(k.name), endpoint: text(k.endpoint), timeoutMs, timeoutText,
          // kube defaults the cache size for v1 only.
          ...(typeof k.cachesize === 'number' ? { cachesize: k.cachesize } : apiVersion === 'v1' ? { cachesize: 1000 } : {}),
        };
      }
      return out;
    });
    return { resources: strings(ro.resources), providers };
  });
}

// ---- validation (kube's ValidateEncryptionConfiguration) ------------------------------------------------------

function parseGR(s: string): GroupResource {
  const i = s.indexOf('.');
  return i < 0 ? { group: '', resource: s } : { group: s.slice(i + 1), resource: s.slice(0, i) };
}

const goStrings = (l: readonly string[]) => `[]string{${l.map((s) => JSON.stringify(s)).join(', ')}}`;

function validateResources(list: string[], path: string, errs: FieldError[]): void {
  if (list.length >= 2) {
    const grs = list.map(parseGR);
    let dup = false;
    let overlap = false;
    grs.forEach((a, i) => grs.forEach((b, j) => {
      if (i === j) return;
      if (a.group === b.group && a.resource === b.resource && !dup) { dup = true; return; }
      if (overlap) return;
      if (a.group === '*' && a.resource === '*') { overlap = true; return; }
      if (a.group !== b.group) return;
      if (a.resource === '*' || b.resource === '*') overlap = true;
    }));
    if (dup) errs.push(field.invalid(path, goStrings(list), 'the same resource cannot be specified multiple times'));
    if (overlap) errs.push(field.invalid(path, goStrings(list), "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked"));
  }
  list.forEach((res, j) => {
    const p = `${path}[${j}]`;
    const gr = parseGR(res);
    if (res.toLowerCase() !== res) errs.push(field.invalid(p, res, 'resource name should not contain capital letters'));
    else if (res === '*') errs.push(field.invalid(p, res, "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources"));
    else if (['apiserveripinfo', 'serviceipallocations', 'servicenodeportallocations'].includes(res)) errs.push(field.invalid(p, res, 'resources which do not have REST API/s cannot be encrypted'));
    else if (gr.group === 'events.k8s.io') errs.push(field.invalid(p, res, "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file"));
    else if (gr.group === 'extensions') errs.push(field.invalid(p, res, "'extensions' group has been removed and cannot be used for encryption"));
    else if (gr.group === '*' && gr.resource !== '*') errs.push(field.invalid(p, res, 'encrypting the same resource across groups is not supported'));
  });
}

function validateKeys(keys: Key[], path: string, sizes: number[], errs: FieldError[]): void {
  if (keys.length === 0) {
    errs.push(field.required(path, 'at least one keys is required'));
    return;
  }
  keys.forEach((k, i) => {
    const p = `${path}[${i}]`;
    if (!k.name) errs.push(field.required(`${p}.name`, 'name is a mandatory field for a key'));
    if (!k.secret) {
      errs.push(field.required(`${p}.secret`, 'secret is a mandatory field for a key'));
      return;
    }
    const bytes = decodeStdBase64(k.secret);
    if (!bytes) {
      errs.push(field.invalid(`${p}.secret`, 'REDACTED', 'secrets must be base64 encoded'));
      return;
    }
    if (!sizes.includes(bytes.length)) errs.push(field.invalid(`${p}.secret`, 'REDACTED', `secret is not of the expected length, got ${bytes.length}, expected one of [${sizes.join(' ')}]`));
  });
}

/** Go's base64.StdEncoding: padded, standard alphabet, nothing else. */
export function decodeStdBase64(s: string): Buffer | undefined {
  if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) return undefined;
  return Buffer.from(s, 'base64');
}

function validateKms(k: KmsConf, path: string, names: Set<string>, reload: boolean, errs: FieldError[]): void {
  if (!k.name) errs.push(field.required(`${path}.name`, 'name is a mandatory field for a provider'));
  if (k.apiVersion !== 'v1' && k.name.includes(':')) errs.push(field.invalid(`${path}.name`, k.name, `invalid KMS provider name ${k.name}, must not contain ':'`));
  if ((reload || k.apiVersion !== 'v1') && names.has(k.name)) errs.push(field.invalid(`${path}.name`, k.name, `duplicate KMS provider name ${k.name}, names must be unique`));
  if (k.timeoutMs <= 0) errs.push(field.invalid(`${path}.timeout`, k.timeoutText, 'timeout should be a positive value'));
  if (!k.endpoint) errs.push(field.invalid(`${path}.endpoint`, '', 'endpoint is a mandatory field for a kms'));
  else {
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(k.endpoint)?.[1] ?? '';
    if (scheme !== 'unix') errs.push(field.invalid(`${path}.endpoint`, k.endpoint, `unsupported scheme ${JSON.stringify(scheme)} for KMS provider, only unix is supported`));
  }
  if (k.apiVersion !== 'v1' && k.cachesize !== undefined) errs.push(field.invalid(`${path}.cachesize`, k.cachesize, 'cachesize is not supported in v2'));
  if (k.apiVersion === 'v1' && k.cachesize === 0) errs.push(field.invalid(`${path}.cachesize`, 0, 'cachesize should be a positive value, or negative to disable'));
  if (k.apiVersion !== 'v1' && k.apiVersion !== 'v2') errs.push(field.invalid(`${path}.apiVersion`, k.apiVersion, 'unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported'));
}

export function validateEncryptionConfiguration(conf: ResourceConf[], reload: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (conf.length === 0) return [field.required('resources', 'at least one resources is required')];
  const kmsNames = new Set<string>();
  conf.forEach((rc, i) => {
    const r = `resources[${i}].resources`;
    const p = `resources[${i}].providers`;
    if (rc.resources.length === 0) errs.push(field.required(r, `at least one ${r} is required`));
    validateResources(rc.resources, r, errs);
    if (rc.providers.length === 0) errs.push(field.required(p, `at least one ${p} is required`));
    rc.providers.forEach((pr, j) => {
      const path = `${p}[${j}]`;
      const found = [pr.kms, pr.aesgcm, pr.aescbc, pr.secretbox, pr.identity].filter((x) => x !== undefined).length;
      if (found === 0) errs.push(field.invalid(path, goProvider(pr), 'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity'));
      else if (found > 1) errs.push(field.invalid(path, goProvider(pr), 'more than one provider specified in a single element, should split into different list elements'));
      if (pr.kms) {
        validateKms(pr.kms, `${path}.kms`, kmsNames, reload, errs);
        kmsNames.add(pr.kms.name);
      } else if (pr.aesgcm) validateKeys(pr.aesgcm, `${path}.aesgcm.keys`, [16, 24, 32], errs);
      else if (pr.aescbc) validateKeys(pr.aescbc, `${path}.aescbc.keys`, [16, 24, 32], errs);
      else if (pr.secretbox) validateKeys(pr.secretbox, `${path}.secretbox.keys`, [32], errs);
    });
  });
  return errs;
}

/** The provider value as Go prints a struct with %#v, secrets left out (kube prints pointers only). */
function goProvider(p: Provider): string {
  const ptr = (v: unknown) => (v === undefined ? '(nil)' : '(0xc000000000)');
  return `apiserver.ProviderConfiguration{AESGCM:(*apiserver.AESConfiguration)${ptr(p.aesgcm)}, AESCBC:(*apiserver.AESConfiguration)${ptr(p.aescbc)}, Secretbox:(*apiserver.SecretboxConfiguration)${ptr(p.secretbox)}, Identity:(*apiserver.IdentityConfiguration)${ptr(p.identity)}, KMS:(*apiserver.KMSConfiguration)${ptr(p.kms)}}`;
}

const aggregate = (msgs: readonly string[]): string => (msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`);

// ---- loading -------------------------------------------------------------------------------------------------

const PREFIX = {
  aescbc: 'k8s:enc:aescbc:v1:',
  aesgcm: 'k8s:enc:aesgcm:v1:',
  secretbox: 'k8s:enc:secretbox:v1:',
  kmsv2: 'k8s:enc:kms:v2:',
};
const te = new TextEncoder();

/** Reads the file and parses it; every failure is an EncryptionConfigError with kube's wording. */
export async function readEncryptionConfigFile(file: string, reload: boolean): Promise<{ conf: ResourceConf[]; hash: string }> {
  let data: Buffer;
  try {
    data = await readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new EncryptionConfigError(`error while parsing file: error while loading file: error reading encryption provider configuration file ${JSON.stringify(file)}: open ${file}: ${why}`);
  }
  if (data.length === 0) throw new EncryptionConfigError(`error while parsing file: error while loading file: encryption provider configuration file ${JSON.stringify(file)} is empty`);
  const hash = `sha256:${createHash('sha256').update(data).digest('hex')}`;
  const decodeErr = (msg: string) => new EncryptionConfigError(`error while parsing file: error decoding encryption provider configuration file ${JSON.stringify(file)}: ${msg}`);
  const doc = parseDocument(data.toString('utf8'), { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw decodeErr(`yaml: line ${e.linePos?.[0].line ?? 1}: ${e.message.split('\n')[0]}`);
  }
  const raw: unknown = doc.toJS();
  if (!isObj(raw)) throw decodeErr("Object 'Kind' is missing in '" + data.toString('utf8').trim() + "'");
  if (typeof raw.kind !== 'string' || raw.kind === '') throw decodeErr(`Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  if (raw.apiVersion !== 'apiserver.config.k8s.io/v1') {
    throw decodeErr(`no kind ${JSON.stringify(raw.kind)} is registered for version ${JSON.stringify(raw.apiVersion ?? '')} in scheme "pkg/runtime/scheme.go:100"`);
  }
  if (raw.kind !== 'EncryptionConfiguration') {
    throw decodeErr(`no kind ${JSON.stringify(raw.kind)} is registered for version "apiserver.config.k8s.io/v1" in scheme "pkg/runtime/scheme.go:100"`);
  }
  const unknown = unknownFields(raw);
  if (unknown.length) throw decodeErr(`strict decoding error: ${unknown.join(', ')}`);
  let conf: ResourceConf[];
  try {
    conf = typed(raw);
  } catch (e) {
    throw decodeErr((e as Error).message);
  }
  const errs = validateEncryptionConfiguration(conf, reload);
  if (errs.length) throw new EncryptionConfigError(`error while parsing file: ${aggregate(errs.map((e) => e.toString()))}`);
  return { conf, hash };
}

function keyed(keys: Key[], make: (key: Buffer) => Transformer, noMatch: string): Transformer {
  return new PrefixTransformers(keys.map((k) => ({ prefix: te.encode(`${k.name}:`), transformer: make(decodeStdBase64(k.secret)!) })), noMatch);
}

/** Loads and validates the file and builds every provider (KMS v2 plugins are probed once before this returns). */
export async function loadEncryptionConfig(file: string, opts: LoadOptions & { reload?: boolean } = {}): Promise<EncryptionConfig> {
  const { conf, hash } = await readEncryptionConfigFile(file, opts.reload ?? false);
  const byGR = new Map<string, PrefixTransformer[]>();
  const kms: KmsV2Transformer[] = [];
  const grKey = (gr: GroupResource) => `${gr.group}\0${gr.resource}`;
  const yamlName = (gr: GroupResource) => (gr.group === '' && gr.resource === '*' ? '*.' : gr.group ? `${gr.resource}.${gr.group}` : gr.resource);
  const fail = (msg: string): never => {
    for (const k of kms) k.close();
    throw new EncryptionConfigError(`error while building transformers: ${msg}`);
  };
  for (const rc of conf) {
    const list: PrefixTransformer[] = [];
    for (const p of rc.providers) {
      if (p.aesgcm) list.push({ prefix: te.encode(PREFIX.aesgcm), transformer: keyed(p.aesgcm, (k) => new AesGcmTransformer(k), 'no matching key was found for the provided AES transformer') });
      else if (p.aescbc) list.push({ prefix: te.encode(PREFIX.aescbc), transformer: keyed(p.aescbc, (k) => new AesCbcTransformer(k), 'no matching key was found for the provided AES transformer') });
      else if (p.secretbox) list.push({ prefix: te.encode(PREFIX.secretbox), transformer: keyed(p.secretbox, (k) => new SecretboxTransformer(k), 'no matching key was found for the provided Secretbox transformer') });
      else if (p.identity) list.push({ prefix: new Uint8Array(0), transformer: identityTransformer });
      else if (p.kms) {
        if (p.kms.apiVersion === 'v1') fail('KMSv1 is deprecated and will only receive security updates going forward. Use KMSv2 instead.  Set --feature-gates=KMSv1=true to use the deprecated KMSv1 feature.');
        const service = (opts.kmsService ?? grpcKmsService)(p.kms.endpoint, p.kms.timeoutMs);
        const t = new KmsV2Transformer({ name: p.kms.name, service, healthyIntervalMs: opts.kmsHealthyIntervalMs, unhealthyIntervalMs: opts.kmsUnhealthyIntervalMs });
        kms.push(t);
        list.push({ prefix: te.encode(`${PREFIX.kmsv2}${p.kms.name}:`), transformer: t });
      }
    }
    for (const res of rc.resources) {
      const gr = parseGR(res);
      const anyInGroup = { group: gr.group, resource: '*' };
      if (byGR.has(grKey(anyInGroup))) fail(`resource ${JSON.stringify(yamlName(gr))} is masked by earlier rule ${JSON.stringify(yamlName(anyInGroup))}`);
      if (byGR.has(grKey({ group: '*', resource: '*' }))) fail(`resource ${JSON.stringify(yamlName(gr))} is masked by earlier rule "*.*"`);
      byGR.set(grKey(gr), [...(byGR.get(grKey(gr)) ?? []), ...list]);
    }
  }
  // kube primes the plugins at start; a plugin that does not answer leaves writes failing until it does.
  await Promise.all(kms.map((k) => k.start()));
  const transformers = new Map<string, Transformer>();
  for (const [k, l] of byGR) transformers.set(k, new PrefixTransformers(l, 'no matching prefix found'));
  return {
    hash,
    kmsProviders: kms,
    transformerFor(gr) {
      return transformers.get(grKey(gr)) ?? transformers.get(grKey({ group: gr.group, resource: '*' })) ?? transformers.get(grKey({ group: '*', resource: '*' }));
    },
    close() {
      for (const k of kms) k.close();
    },
  };
}
