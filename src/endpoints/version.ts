/**
 * GET /version: kube's version.Info. We report Kubernetes v1.33.0 (what clients negotiate against) with our
 * own build facts in kube's keys: goVersion carries the Node.js version honestly, compiler "tsx".
 */
import type { Endpoint } from '../request/context.ts';
import { respondJson } from './respond.ts';

export const KUBE_VERSION = { major: '1', minor: '33', gitVersion: 'v1.33.0' } as const;

const LOADED_AT = new Date().toISOString().replace(/\.\d+Z$/, 'Z');

export interface VersionInfo {
  major: string;
  minor: string;
  emulationMajor: string;
  emulationMinor: string;
  minCompatibilityMajor: string;
  minCompatibilityMinor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

export function versionInfo(build: { gitCommit?: string; buildDate?: string } = {}): VersionInfo {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch === 'ia32' ? '386' : process.arch;
  return {
    major: KUBE_VERSION.major,
    minor: KUBE_VERSION.minor,
    emulationMajor: KUBE_VERSION.major,
    emulationMinor: KUBE_VERSION.minor,
    minCompatibilityMajor: '1',
    minCompatibilityMinor: '32',
    gitVersion: KUBE_VERSION.gitVersion,
    gitCommit: build.gitCommit ?? '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    // Unstamped builds report when this process loaded the code, in kube's second-precision UTC form.
    buildDate: build.buildDate ?? LOADED_AT,
    goVersion: `node${process.versions.node}`,
    compiler: 'tsx',
    platform: `${process.platform}/${arch}`,
  };
}

export function createVersionEndpoint(build: { gitCommit?: string; buildDate?: string } = {}): Endpoint {
  const info = versionInfo(build);
  return (ctx) => {
    if (ctx.info.path !== '/version' && ctx.info.path !== '/version/') return false;
    if (ctx.req.method !== 'GET' && ctx.req.method !== 'HEAD') return false;
    respondJson(ctx, 200, info);
    return true;
  };
}
