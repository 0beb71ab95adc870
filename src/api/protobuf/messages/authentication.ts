// Protobuf message descriptions of authentication (field numbers, wire types, Go pointer-ness, inline embedding, merge
// markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('authentication.v1', {
  BoundObjectReference: { kind: '1 string', apiVersion: '2 string', name: '3 string', uid: '4 string' },
  ExtraValue: { items: '1 []string' },
  SelfSubjectReview: { metadata: '1 ObjectMeta', status: '2 SelfSubjectReviewStatus' },
  SelfSubjectReviewStatus: { userInfo: '1 UserInfo' },
  TokenRequest: { metadata: '1 ObjectMeta', spec: '2 !TokenRequestSpec', status: '3 TokenRequestStatus' },
  TokenRequestSpec: { audiences: '1 ![]string list=atomic', expirationSeconds: '4 !*int64', boundObjectRef: '3 !*BoundObjectReference' },
  TokenRequestStatus: { token: '1 !string', expirationTimestamp: '2 !Time' },
  TokenReview: { metadata: '1 ObjectMeta', spec: '2 !TokenReviewSpec', status: '3 TokenReviewStatus' },
  TokenReviewSpec: { token: '1 string', audiences: '2 []string list=atomic' },
  TokenReviewStatus: { authenticated: '1 bool', user: '2 UserInfo', audiences: '4 []string list=atomic', error: '3 string' },
  UserInfo: { username: '1 string', uid: '2 string', groups: '3 []string list=atomic', extra: '4 map<string,ExtraValue>' },
}, {"ExtraValue": "stringlist"});

definePackage('authentication.v1beta1', {
  ExtraValue: { items: '1 []string' },
  SelfSubjectReview: { metadata: '1 ObjectMeta', status: '2 SelfSubjectReviewStatus' },
  SelfSubjectReviewStatus: { userInfo: '1 authentication.v1.UserInfo' },
  TokenReview: { metadata: '1 ObjectMeta', spec: '2 !TokenReviewSpec', status: '3 TokenReviewStatus' },
  TokenReviewSpec: { token: '1 string', audiences: '2 []string list=atomic' },
  TokenReviewStatus: { authenticated: '1 bool', user: '2 UserInfo', audiences: '4 []string list=atomic', error: '3 string' },
  UserInfo: { username: '1 string', uid: '2 string', groups: '3 []string list=atomic', extra: '4 map<string,ExtraValue>' },
}, {"ExtraValue": "stringlist"});

definePackage('authentication.v1alpha1', {
  SelfSubjectReview: { metadata: '1 ObjectMeta', status: '2 SelfSubjectReviewStatus' },
  SelfSubjectReviewStatus: { userInfo: '1 authentication.v1.UserInfo' },
});

