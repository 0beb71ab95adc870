/**
 * The webhook plugins' configuration (WebhookAdmissionConfiguration, apiserver.config.k8s.io/v1, or v1alpha1
 * WebhookAdmission, from `--admission-control-config-file`) and the kubeconfig it names: credentials for
 * webhook servers, chosen per server as kube's default AuthenticationInfoResolver does — a user entry named
 * after the server (`host:port`, `<svc>.<ns>.svc:<port>`, then `*.`-prefixed suffixes, then the same without a
 * default :443), else `*`, else the current context's user, else anonymous. File paths in the kubeconfig are
 * relative to it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { OptionsError } from '../../machinery/errors.ts';

/** Credentials for one webhook server. */
export interface AuthInfo {
  readonly certPem?: string;
  readonly keyPem?: string;
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `kubeConfigFile` of the plugin configuration; throws kube's messages (the server does not start). */
export function kubeConfigFileOf(plugin: string, config: unknown): string | undefined {
  if (config === undefined || config === null) return undefined;
  if (!isObj(config)) throw new OptionsError(`couldn't init admission plugin ${JSON.stringify(plugin)}: unexpected configuration`);
  const file = typeof config['kubeConfigFile'] === 'string' ? config['kubeConfigFile'] : '';
  if (!path.isAbsolute(file)) {
    throw new OptionsError(`couldn't init admission plugin ${JSON.stringify(plugin)}: kubeConfigFile: Invalid value: ${JSON.stringify(file)}: must be an absolute file path`);
  }
  return file;
}

export class AuthInfoResolver {
  private constructor(private readonly users: ReadonlyMap<string, AuthInfo>, private readonly current: AuthInfo | undefined) {}

  static readonly anonymous = new AuthInfoResolver(new Map(), undefined);

  /** Reads the kubeconfig (throws OptionsError naming the file when it cannot). */
  static load(plugin: string, file: string | undefined): AuthInfoResolver {
    if (!file) return AuthInfoResolver.anonymous;
    const fail = (why: string): never => {
      throw new OptionsError(`couldn't init admission plugin ${JSON.stringify(plugin)}: ${why}`);
    };
    let doc: unknown;
    try {
      doc = parseYaml(readFileSync(file, 'utf8'));
    } catch (e) {
      return fail((e as Error).message);
    }
    if (!isObj(doc)) return fail(`${file}: invalid kubeconfig`);
    const dir = path.dirname(file);
    const read = (p: string): string => readFileSync(path.resolve(dir, p), 'utf8');
    const users = new Map<string, AuthInfo>();
    for (const entry of Array.isArray(doc['users']) ? doc['users'] : []) {
      if (!isObj(entry) || typeof entry['name'] !== 'string') continue;
      const u = isObj(entry['user']) ? entry['user'] : {};
      if (u['auth-provider'] !== undefined) return fail('auth provider not supported');
      if (u['exec'] !== undefined) return fail(`user ${JSON.stringify(entry['name'])}: exec credential plugins are not supported by Keelson`);
      const pem = (dataKey: string, fileKey: string): string | undefined => {
        const data = str(u[dataKey]);
        if (data) return Buffer.from(data, 'base64').toString('utf8');
        const f = str(u[fileKey]);
        return f ? read(f) : undefined;
      };
      let info: AuthInfo;
      try {
        const tokenFile = str(u['tokenFile']);
        info = {
          certPem: pem('client-certificate-data', 'client-certificate'),
          keyPem: pem('client-key-data', 'client-key'),
          token: str(u['token']) ?? (tokenFile ? read(tokenFile) : undefined),
          username: str(u['username']),
          password: str(u['password']),
        };
      } catch (e) {
        return fail((e as Error).message);
      }
      users.set(entry['name'], info);
    }
    let current: AuthInfo | undefined;
    const currentContext = str(doc['current-context']);
    if (currentContext) {
      const ctx = (Array.isArray(doc['contexts']) ? doc['contexts'] : []).find((c) => isObj(c) && c['name'] === currentContext) as Obj | undefined;
      const userName = isObj(ctx?.['context']) ? str((ctx['context'] as Obj)['user']) : undefined;
      if (userName) current = users.get(userName);
    }
    return new AuthInfoResolver(users, current);
  }

  /** Credentials for `host:port` (kube's clientConfig(target)). */
  forTarget(target: string): AuthInfo {
    const byName = (t: string): AuthInfo | undefined => {
      const exact = this.users.get(t);
      if (exact) return exact;
      const steps = t.split('.');
      for (let i = 1; i < steps.length; i++) {
        const wild = this.users.get(`*.${steps.slice(i).join('.')}`);
        if (wild) return wild;
      }
      return undefined;
    };
    const found = byName(target);
    if (found) return found;
    const m = /^(.*):443$/.exec(target);
    if (m) {
      const noPort = byName(m[1]!);
      if (noPort) return noPort;
    }
    return this.users.get('*') ?? this.current ?? {};
  }
}
