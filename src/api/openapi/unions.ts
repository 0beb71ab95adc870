/**
 * Discriminated unions kube-apiserver's OpenAPI marks with `x-kubernetes-unions` (Go `+union` types): the
 * discriminator field and, for each member field, the discriminator value selecting it. Keyed by
 * `<package base>.<Message>` (any version), as the markers sit on the type in every version.
 */
const UNIONS: Record<string, { discriminator: string; members: Record<string, string> }> = {
  'core.AppArmorProfile': { discriminator: 'type', members: { localhostProfile: 'LocalhostProfile' } },
  'core.SeccompProfile': { discriminator: 'type', members: { localhostProfile: 'LocalhostProfile' } },
  'flowcontrol.LimitResponse': { discriminator: 'type', members: { queuing: 'Queuing' } },
  'flowcontrol.PriorityLevelConfigurationSpec': { discriminator: 'type', members: { exempt: 'Exempt', limited: 'Limited' } },
  'flowcontrol.Subject': { discriminator: 'kind', members: { group: 'Group', serviceAccount: 'ServiceAccount', user: 'User' } },
};

/** The `x-kubernetes-unions` value of a message, if it is a union. */
export function unionsOf(fullName: string): Record<string, unknown>[] | undefined {
  const parts = fullName.split('.');
  const u = UNIONS[`${parts[0]}.${parts[parts.length - 1]}`];
  return u ? [{ discriminator: u.discriminator, 'fields-to-discriminateBy': { ...u.members } }] : undefined;
}
