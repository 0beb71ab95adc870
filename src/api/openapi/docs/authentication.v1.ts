import { defineDocs } from './define.ts';
import * as a from './shared/authentication.ts';

const docs = {
  ...a,
  BoundObjectReference: {
    $: 'The object a requested token is bound to: the token becomes invalid once that object is deleted.',
    kind: 'Kind of the object: Pod or Secret, or Node where node-bound tokens are enabled.',
    apiVersion: 'API version of the object; v1 for the supported kinds.',
    name: 'Name of the object, in the namespace of the service account.',
    uid: 'UID of the object; when set, the token is bound to that very object and not to a later one of the same name.',
  },
  TokenRequest: {
    $: 'Asks for a token of a service account (the serviceaccounts/token subresource); the signed token comes back in status and is not stored.',
    metadata: 'Standard object metadata; name and namespace are those of the service account.',
    spec: 'The audiences, lifetime and binding wanted for the token.',
    status: 'The issued token and when it expires.',
  },
  TokenRequestSpec: {
    $: 'The token wanted.',
    audiences: 'Audiences the token is meant for; a recipient must find one of its own identifiers here. Empty means the API server\'s own audiences.',
    expirationSeconds: 'Lifetime wanted, in seconds; at least 600. The server may shorten or lengthen it within its configured bounds. Defaults to 3600.',
    boundObjectRef: 'A Pod, Secret or Node the token is bound to; the token stops being valid when that object is deleted.',
  },
  TokenRequestStatus: {
    $: 'The token issued.',
    token: 'The signed JWT bearer token.',
    expirationTimestamp: 'When the token stops being valid.',
  },
};

defineDocs('authentication.v1', docs);
export default docs;
