/**
 * Descriptions of core/v1 (the legacy group: pods, services, nodes, volumes, configuration and the rest), in our own
 * words. The package is large, so it is written in four parts (./core.v1/a-d.ts, e-o.ts, p.ts and q-z.ts, each in
 * the order of ../../protobuf/messages/core.ts), each calling defineDocs('core.v1', …). Defaults are those
 * kube-apiserver applies (pkg/apis/core/v1/defaults.go and the +default markers of the Go types).
 */
import aToD from './core.v1/a-d.ts';
import eToO from './core.v1/e-o.ts';
import p from './core.v1/p.ts';
import qToZ from './core.v1/q-z.ts';

export default { ...aToD, ...eToO, ...p, ...qToZ };
