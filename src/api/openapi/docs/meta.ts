/**
 * Descriptions of meta.k8s.io/v1 (k8s.io/apimachinery/pkg/apis/meta/v1): object and list metadata, selectors,
 * conditions, request options, Status and discovery documents. In the order of ../../protobuf/messages/meta.ts.
 *
 * One phrase is kube's, as an interface: ObjectMeta.creationTimestamp opens with `CreationTimestamp is a timestamp`,
 * which conformance ("CustomResourcePublishOpenAPI works for CRD with validation schema") matches in the output of
 * `kubectl explain <crd>.metadata`. Every other word here is ours.
 */
import { defineDocs } from './define.ts';

const DRY_RUN = 'When present, the request is checked and processed but nothing is persisted. The only value is All (every dry-run stage).';
const FIELD_MANAGER = 'Name of the actor making this change, recorded in managedFields; printable characters, at most 128.';
const FIELD_VALIDATION = 'What to do with unknown or duplicate fields in the body: Ignore (drop them silently), Warn (drop them and answer with a warning; the default) or Strict (refuse the request).';
const SERVER_ADDRESSES = 'For clients in each listed network, the address at which they can reach this server; clients use the first matching entry, else the address they already use.';
const SELECTOR_VALUES = 'The values to compare with. Must be non-empty for In and NotIn and empty for Exists and DoesNotExist.';

const docs = {
  APIGroup: {
    $: 'Discovery document of one API group: its name, the versions it serves and the one clients should prefer.',
    name: 'The group name, such as apps or rbac.authorization.k8s.io; empty for the core group.',
    versions: 'Every version of this group the server serves.',
    preferredVersion: 'The version clients should use when they have no reason to pick another one.',
    serverAddressByClientCIDRs: SERVER_ADDRESSES,
  },
  APIGroupList: {
    $: 'Discovery document at /apis: every API group the server serves except the core group.',
    groups: 'The served groups, each with its versions.',
  },
  APIResource: {
    $: 'Discovery entry of one resource (or sub-resource) of a group version: its names, kind, scope and verbs.',
    name: 'The plural resource name used in URLs, such as deployments; a sub-resource is written resource/sub-resource, such as pods/log.',
    singularName: 'The singular lower-case name of the resource, such as deployment; kubectl accepts it in place of the plural.',
    namespaced: 'True when objects of this resource live in a namespace, false when they are cluster-scoped.',
    group: 'The group of the kind this sub-resource accepts and returns, when it differs from the group of the parent resource (autoscaling for the scale sub-resource of deployments).',
    version: 'The version of the kind this sub-resource accepts and returns, when it differs from the version of the parent resource.',
    kind: 'The kind of the objects of this resource, such as Deployment.',
    verbs: 'The operations the resource supports: get, list, watch, create, update, patch, delete, deletecollection and, for some, proxy.',
    shortNames: 'Abbreviations kubectl accepts for the resource, such as deploy for deployments.',
    categories: 'Groupings the resource belongs to, such as all; kubectl get <category> lists every resource in it.',
    storageVersionHash: 'An opaque hash of the version objects are stored in; a change tells clients that stored objects may need rewriting. Not for other uses.',
  },
  APIResourceList: {
    $: 'Discovery document of one group version: the resources it serves.',
    groupVersion: 'The group version described, as group/version (just v1 for the core group).',
    resources: 'The resources and sub-resources of this group version.',
  },
  APIVersions: {
    $: 'Discovery document at /api: the versions of the core (legacy) group.',
    versions: 'The core group versions the server serves; in practice only v1.',
    serverAddressByClientCIDRs: SERVER_ADDRESSES,
  },
  ApplyOptions: {
    $: 'Query options of a server-side apply request.',
    dryRun: DRY_RUN,
    force: 'Take over fields another manager owns instead of failing with a conflict. Apply requests must set it explicitly.',
    fieldManager: 'Name of the actor applying, the owner of the fields in the applied configuration; required, printable characters, at most 128.',
  },
  Condition: {
    $: 'One observed aspect of an object\'s state, in the shape shared by the status conditions of many kinds.',
    type: 'Which aspect this condition reports, in CamelCase or as domain/CamelCase; at most 316 characters and unique within the list.',
    status: 'Whether the condition holds: True, False or Unknown.',
    observedGeneration: 'The metadata.generation of the object the condition was computed from; lower than the current generation when the condition is stale.',
    lastTransitionTime: 'When status last changed from one value to another; required.',
    reason: 'A CamelCase word giving the cause of the last transition, for programs to match; required, 1 to 1024 characters.',
    message: 'Explanation of the last transition for humans; may be empty, at most 32768 characters.',
  },
  CreateOptions: {
    $: 'Query options of a create request.',
    dryRun: DRY_RUN,
    fieldManager: FIELD_MANAGER,
    fieldValidation: FIELD_VALIDATION,
  },
  DeleteOptions: {
    $: 'Options of a delete request, sent as its body or as query parameters: grace period, preconditions and what happens to dependents.',
    gracePeriodSeconds: 'Seconds the object gets to shut down before it is removed; 0 means at once. Non-negative; when unset, the default of the kind applies (a pod\'s terminationGracePeriodSeconds).',
    preconditions: 'Conditions the stored object must meet, checked before deleting; a mismatch fails the request with a Conflict.',
    orphanDependents: 'Deprecated in favour of propagationPolicy: true leaves dependents in place (Orphan), false deletes them. Set one of the two, not both.',
    propagationPolicy: 'What happens to the objects this one owns: Orphan (left in place, owner reference removed), Background (deleted by the garbage collector after the owner is gone) or Foreground (the owner stays, marked, until they are gone). The default depends on the resource.',
    dryRun: DRY_RUN,
    ignoreStoreReadErrorWithClusterBreakingPotential: 'Remove an object that cannot be read or decoded from storage, skipping finalizers and every other check. Dangerous: needs the AllowUnsafeMalformedObjectDeletion feature and the unsafe-delete-ignore-read-errors permission.',
  },
  Duration: {
    $: 'A length of time; its JSON form is a Go duration string such as 90s or 1h30m.',
    duration: 'The length in nanoseconds (protobuf form).',
  },
  FieldSelectorRequirement: {
    $: 'One condition on a field of an object: a field path, an operator and values.',
    key: 'The field path the condition reads, such as spec.nodeName.',
    operator: 'How the field compares with values: In, NotIn, Exists or DoesNotExist.',
    values: SELECTOR_VALUES,
  },
  FieldsV1: {
    $: 'A set of fields in JSON: a tree whose keys are f:<name> for fields, k:<key> for list items with keys, v:<value> for set items and i:<index> for positions, with {} at each leaf.',
    '-': 'The field set as raw JSON bytes (protobuf form).',
  },
  GetOptions: {
    $: 'Query options of a get request.',
    resourceVersion: 'Which version of the object to read: unset for the latest, 0 for whatever the server has at hand (possibly older); see the API concepts for the rules.',
  },
  GroupKind: {
    $: 'A kind named with its API group but no version.',
    group: 'The API group; empty for the core group.',
    kind: 'The kind, in CamelCase.',
  },
  GroupResource: {
    $: 'A resource named with its API group but no version.',
    group: 'The API group; empty for the core group.',
    resource: 'The plural resource name.',
  },
  GroupVersion: {
    $: 'An API group together with one of its versions.',
    group: 'The API group; empty for the core group.',
    version: 'The version, such as v1 or v1beta1.',
  },
  GroupVersionForDiscovery: {
    $: 'One version of an API group, as listed in discovery.',
    groupVersion: 'The version as group/version, such as apps/v1 (v1 for the core group).',
    version: 'The version alone, such as v1.',
  },
  GroupVersionKind: {
    $: 'A kind fully named: API group, version and kind.',
    group: 'The API group; empty for the core group.',
    version: 'The version of the group.',
    kind: 'The kind, in CamelCase.',
  },
  GroupVersionResource: {
    $: 'A resource fully named: API group, version and plural resource name.',
    group: 'The API group; empty for the core group.',
    version: 'The version of the group.',
    resource: 'The plural resource name.',
  },
  LabelSelector: {
    $: 'A query on labels. matchLabels and matchExpressions must all hold (AND); an empty selector selects every object, while a missing one usually selects none.',
    matchLabels: 'Labels that must be present with exactly these values; each entry is the same as an In expression with a single value.',
    matchExpressions: 'Further conditions on labels, each a key, an operator and values.',
  },
  LabelSelectorRequirement: {
    $: 'One condition on a label: a key, an operator and values.',
    key: 'The label key the condition reads.',
    operator: 'How the label compares with values: In, NotIn, Exists or DoesNotExist.',
    values: SELECTOR_VALUES,
  },
  List: {
    $: 'A list of objects of any kinds, such as kubectl get -o json prints for several resources.',
    metadata: 'Metadata of the list as a whole.',
    items: 'The objects, each complete with its own apiVersion and kind.',
  },
  ListMeta: {
    $: 'Metadata of a list response: the version of the collection it reflects and, for paged lists, how to go on.',
    selfLink: 'Deprecated and no longer set by the server (since Kubernetes 1.20).',
    resourceVersion: 'The version of the collection this list was read at; start a watch from it to see every later change. Opaque to clients.',
    continue: 'Set when more items remain after this page: pass it as the continue parameter of the next request to read them. The token expires, after which the server answers 410 Gone.',
    remainingItemCount: 'How many items follow this page in the whole list; only set for paged lists read without selectors, and only an estimate when the collection changes meanwhile.',
  },
  ListOptions: {
    $: 'Query options of a list or watch request.',
    labelSelector: 'Only objects whose labels match this selector, such as app=web,tier!=db; default: every object.',
    fieldSelector: 'Only objects whose fields match this selector, such as metadata.name=x; each resource supports a few fields. Default: every object.',
    watch: 'Stream changes (added, modified, deleted) instead of returning a list; start from resourceVersion to miss none.',
    allowWatchBookmarks: 'Ask for BOOKMARK events that carry only a newer resourceVersion, so that a watch can resume from there; the server may send none.',
    resourceVersion: 'Which state to read: unset for the latest (a consistent read), 0 for any state the server has at hand, another value for a state at least that new (or exactly it, see resourceVersionMatch).',
    resourceVersionMatch: 'How resourceVersion applies to a list: NotOlderThan or Exact. Only allowed when resourceVersion is set.',
    timeoutSeconds: 'End the call after this many seconds, whatever its progress.',
    limit: 'The most items to return in one response; when more remain, the list metadata holds a continue token. 0 or unset returns all.',
    continue: 'Token from the metadata of the previous page, to read the next one with the same query.',
    sendInitialEvents: 'With watch: first send an ADDED event for every existing object, then a BOOKMARK annotated k8s.io/initial-events-end, then the changes. Needs allowWatchBookmarks and resourceVersionMatch NotOlderThan.',
  },
  ManagedFieldsEntry: {
    $: 'The fields one manager owns in an object, through one kind of operation and in one API version (server-side apply bookkeeping).',
    manager: 'The name of the manager (the fieldManager of its requests) that owns these fields.',
    operation: 'How the manager set the fields: Apply (server-side apply) or Update (any other write).',
    apiVersion: 'The group/version in which the fields are named; conversions need it because field names may differ between versions.',
    time: 'When the manager last changed any of these fields.',
    fieldsType: 'The format of fieldsV1; only FieldsV1 exists.',
    fieldsV1: 'The set of fields the manager owns.',
    subresource: 'The sub-resource through which the fields were written, such as status; empty for the main resource.',
  },
  MicroTime: {
    $: 'A point in time with microsecond precision, written in JSON as an RFC 3339 timestamp in UTC with six fractional digits.',
    seconds: 'Whole seconds since the Unix epoch (protobuf form).',
    nanos: 'Nanoseconds within that second, 0 to 999999999 (protobuf form).',
  },
  ObjectMeta: {
    $: 'Metadata of a stored object: its identity (name, namespace, uid), labels and annotations, owners and finalizers, and the fields the server maintains.',
    name: 'The name of the object, unique among objects of the same resource in its namespace (or in the cluster, when cluster-scoped). Required on create unless generateName is given; cannot be changed; most resources require a lower-case DNS subdomain.',
    generateName: 'When name is empty, the server makes one from this prefix and a random suffix of five characters, drawing again a few times if the result is taken. The prefix must itself be valid as a name.',
    namespace: 'The namespace the object lives in, a DNS label; empty for cluster-scoped objects. On create it defaults to the namespace of the request; it cannot be changed afterwards.',
    selfLink: 'Deprecated and no longer set by the server (since Kubernetes 1.20).',
    uid: 'A value the server assigns on create, unique across every object ever made in the cluster, so that a new object with an old name is told apart. Read-only.',
    resourceVersion: 'An opaque value that changes on every write of the object. Send it back on update to be refused with a Conflict if someone wrote meanwhile; use it to start a watch. Set by the server.',
    generation: 'A number the server increments each time the desired state (usually spec) changes; controllers report the one they acted on as observedGeneration. Read-only.',
    creationTimestamp: 'CreationTimestamp is a timestamp of when the server stored the object for the first time, RFC 3339 in UTC. Set by the server, read-only; not a reliable order between objects.',
    deletionTimestamp: 'Set by the server when deletion is requested and the object has finalizers or a grace period: the object stays, read-only in effect, until the finalizers are removed. Once set it cannot be cleared.',
    deletionGracePeriodSeconds: 'The seconds the object was given to shut down when its deletion was requested; set together with deletionTimestamp and only ever shortened. Read-only.',
    labels: 'Key-value pairs to organize objects and select them with label selectors. Keys are an optional DNS-subdomain prefix and slash, then a name of up to 63 characters; values are at most 63 characters.',
    annotations: 'Key-value pairs for tools and users to attach non-identifying data, not usable in selectors. Keys follow the rules of label keys; all annotations together may not exceed 256 KiB.',
    ownerReferences: 'The objects this one belongs to. When every owner is gone, the garbage collector deletes this object too; at most one owner may be its controller.',
    finalizers: 'Names of the components that must finish cleaning up before the object can be removed from storage; a deletion request only sets deletionTimestamp until this list is empty. Order does not matter.',
    managedFields: 'Which manager owns which fields, as server-side apply tracks it. Written by the server; clients normally leave it alone.',
  },
  OwnerReference: {
    $: 'A reference to an object that owns this one, in the same namespace or cluster-scoped.',
    apiVersion: 'The group/version of the owner.',
    kind: 'The kind of the owner.',
    name: 'The name of the owner.',
    uid: 'The uid of the owner; the reference only counts while an object with this uid exists.',
    controller: 'True when the owner is the controller that manages this object; at most one owner reference may say so.',
    blockOwnerDeletion: 'When true and the owner is deleted in the foreground, the owner is only removed after this object is gone. Setting it requires permission to delete the owner. Default false.',
  },
  PartialObjectMetadata: {
    $: 'An object reduced to its metadata, as the server returns it when a client asks for metadata only.',
    metadata: 'Standard object metadata: name, namespace, labels, annotations, owners, finalizers and the fields the server maintains.',
  },
  PartialObjectMetadataList: {
    $: 'A list of objects reduced to their metadata.',
    metadata: 'Metadata of the list as a whole: the resourceVersion it was read at and, for paged lists, the continue token.',
    items: 'The objects, metadata only.',
  },
  Patch: {
    $: 'The body of a patch request, interpreted according to its Content-Type: JSON patch, JSON merge patch, strategic merge patch or an apply configuration.',
  },
  PatchOptions: {
    $: 'Query options of a patch request.',
    dryRun: DRY_RUN,
    force: 'Only for apply patches: take over fields another manager owns instead of failing with a conflict. Must be unset for other patch types.',
    fieldManager: 'Name of the actor making this change, recorded in managedFields; required for apply patches, optional otherwise. Printable characters, at most 128.',
    fieldValidation: FIELD_VALIDATION,
  },
  Preconditions: {
    $: 'Conditions the stored object must meet for the operation to proceed.',
    uid: 'The uid the object must have.',
    resourceVersion: 'The resourceVersion the object must have.',
  },
  RootPaths: {
    $: 'The paths the server answers at its root, such as /api, /apis and /healthz.',
    paths: 'The served paths.',
  },
  ServerAddressByClientCIDR: {
    $: 'Which server address clients in a network should use.',
    clientCIDR: 'The client network, in CIDR notation.',
    serverAddress: 'The address, host or IP with an optional port, at which those clients reach the server.',
  },
  Status: {
    $: 'The result of a call that returns no object, and the form every error takes.',
    metadata: 'List metadata; normally empty.',
    status: 'Success or Failure.',
    message: 'A description of the result for humans.',
    reason: 'A CamelCase word saying why the call failed, such as NotFound, AlreadyExists, Conflict, Invalid or Forbidden, for programs to match; empty when unknown. More specific than code.',
    details: 'Data about the failure that depends on reason, such as the object concerned and the invalid fields.',
    code: 'The HTTP status code of the result, such as 404; 0 when not set.',
  },
  StatusCause: {
    $: 'One cause of a failure, often one invalid field.',
    reason: 'A CamelCase word naming the cause, such as FieldValueRequired or FieldValueInvalid; empty when unknown.',
    message: 'A description of the cause for humans.',
    field: 'The path of the field at fault, such as spec.containers[0].image; empty when no field is concerned.',
  },
  StatusDetails: {
    $: 'Data about a failure: the object concerned and its causes.',
    name: 'The name of the object concerned, when there is one.',
    group: 'The API group of the object concerned.',
    kind: 'The kind of the object concerned; for some errors the resource name instead.',
    uid: 'The uid of the object concerned, when known.',
    causes: 'The individual causes, such as each invalid field.',
    retryAfterSeconds: 'When set, the client should wait this many seconds before retrying.',
  },
  TableOptions: {
    $: 'Query options of a request for a Table (the rows kubectl get prints).',
    includeObject: 'What each row carries besides its cells: None, Metadata (the default: the object\'s metadata) or Object (the whole object).',
  },
  Time: {
    $: 'A point in time with one-second precision, written in JSON as an RFC 3339 timestamp in UTC, such as 2024-05-01T12:00:00Z.',
    seconds: 'Whole seconds since the Unix epoch (protobuf form).',
    nanos: 'Nanoseconds within that second (protobuf form); always 0 when read back from JSON.',
  },
  Timestamp: {
    $: 'A point in time as protobuf encodes it: seconds since the Unix epoch and nanoseconds.',
    seconds: 'Whole seconds since the Unix epoch.',
    nanos: 'Nanoseconds within that second, 0 to 999999999.',
  },
  TypeMeta: {
    $: 'The two fields that say what an object is: its kind and the group/version of the schema it is written in.',
    kind: 'The kind of this object, in CamelCase, such as Pod. Clients may omit it in requests that name the resource in the URL; it cannot change.',
    apiVersion: 'The group and version of the schema this object is written in, such as apps/v1 (just v1 for the core group). The server converts between the versions it serves and refuses ones it does not know.',
  },
  UpdateOptions: {
    $: 'Query options of an update (PUT) request.',
    dryRun: DRY_RUN,
    fieldManager: FIELD_MANAGER,
    fieldValidation: FIELD_VALIDATION,
  },
  Verbs: {
    $: 'The verbs a resource supports, written in JSON as a list of strings.',
    items: 'The verbs.',
  },
  WatchEvent: {
    $: 'One event of a watch stream.',
    type: 'What happened: ADDED, MODIFIED, DELETED, BOOKMARK (only a newer resourceVersion) or ERROR.',
    object: 'The object as it is after the change (as it was last, for DELETED); for ERROR, a Status describing the error; for BOOKMARK, an object of the watched kind holding only metadata.resourceVersion.',
  },
};

defineDocs('meta', docs);
export default docs;
