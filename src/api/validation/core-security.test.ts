// validatePodSpecSecurityContext / validateSysctls / validateSeccompProfileField (pkg/apis/core/validation).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validatePodSecurityContext, validateSeccompProfile } from './core-security.ts';

test('pod security context', () => {
  const spec = { hostPID: true, shareProcessNamespace: true, securityContext: {
    runAsUser: -1, supplementalGroups: [1, 3000000000], fsGroupChangePolicy: 'Sometimes',
    sysctls: [{ name: 'net.core.somaxconn', value: '1' }, { name: 'net.core.somaxconn', value: '2' }, { name: 'Bad!', value: '' }],
  } };
  assert.deepEqual(validatePodSecurityContext(spec, 'spec.securityContext').map(String), [
    'spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
    'spec.securityContext.supplementalGroups[1]: Invalid value: 3000000000: must be between 0 and 2147483647, inclusive',
    'spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled',
    'spec.securityContext.sysctls[1].name: Duplicate value: "net.core.somaxconn"',
    'spec.securityContext.sysctls[2].name: Invalid value: "Bad!": must have at most 253 characters and match regex ([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?',
    'spec.securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"',
  ]);
});

test('seccomp profile', () => {
  assert.deepEqual(validateSeccompProfile({ type: 'RuntimeDefault' }, 's').map(String), []);
  assert.deepEqual(validateSeccompProfile({ type: 'Localhost' }, 's').map(String), ['s.localhostProfile: Required value: must be set when seccomp type is Localhost']);
  assert.deepEqual(validateSeccompProfile({ type: 'Custom' }, 's').map(String), ['s.type: Unsupported value: "Custom": supported values: "Localhost", "RuntimeDefault", "Unconfined"']);
});
