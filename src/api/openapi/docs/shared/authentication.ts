/** Descriptions for authentication.k8s.io, shared by v1, v1beta1 and v1alpha1 (see ../define.ts). */

const REVIEW_METADATA = 'Standard object metadata; ignored, since a review is answered at once and never stored.';

export const ExtraValue = {
  $: 'A list of strings: the values of one extra attribute of a user.',
  items: 'The values.',
};

export const UserInfo = {
  $: 'Who a user is, as an authenticator established it.',
  username: 'Name of the user, unique among users active at any one time; service accounts appear as system:serviceaccount:<namespace>:<name>.',
  uid: 'Identifier that stays the same for this user across time, where usernames may be reused.',
  groups: 'Groups the user belongs to, such as system:authenticated.',
  extra: 'Further attributes the authenticator provides, each a list of strings; for tokens, things like the bound pod and node names.',
};

export const SelfSubjectReview = {
  $: 'Asks the API server who the caller is: created empty, it comes back with the caller\'s user information as the server sees it.',
  metadata: REVIEW_METADATA,
  status: 'Left empty on create; the answer carries the caller\'s identity.',
};

export const SelfSubjectReviewStatus = {
  $: 'The answer to a SelfSubjectReview.',
  userInfo: 'The user name, UID, groups and extra attributes of the requester.',
};

export const TokenReview = {
  $: 'Asks the API server to authenticate a bearer token, as webhook token authenticators and proxies do; the answer comes back in status.',
  metadata: REVIEW_METADATA,
  spec: 'The token to check and the audiences it must be valid for.',
  status: 'Whether the token is valid and, if so, whose it is.',
};

export const TokenReviewSpec = {
  $: 'The token under review.',
  token: 'The bearer token to check, exactly as the client presented it.',
  audiences: 'Audiences the caller accepts; the token must be valid for at least one. Empty means the API server\'s own audiences.',
};

export const TokenReviewStatus = {
  $: 'The result of a TokenReview.',
  authenticated: 'Whether the token is valid and identifies a user.',
  user: 'The user the token belongs to, when authenticated.',
  audiences: 'Those of the requested audiences (or the server\'s, if none were asked for) that the token is valid for; the caller should check that its audience is in it.',
  error: 'Why the token could not be checked, if the check itself failed.',
};
