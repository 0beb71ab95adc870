/**
 * Descriptions of core/v1 (the legacy group: pods, services, nodes, volumes, configuration and the rest), in our own
 * words. The package is large, so it is written in two parts (./core.v1/a-o.ts and ./core.v1/p-z.ts, each in the
 * order of ../../protobuf/messages/core.ts), both calling defineDocs('core.v1', …). Defaults are those
 * kube-apiserver applies (pkg/apis/core/v1/defaults.go and the +default markers of the Go types).
 */
import aToO from './core.v1/a-o.ts';
import pToZ from './core.v1/p-z.ts';

export default { ...aToO, ...pToZ };
