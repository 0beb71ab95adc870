// Protobuf message descriptions of apiregistration.k8s.io/v1 as Kubernetes v1.33 defines them; see ../schema.ts
// for the notation.
import { definePackage } from '../schema.ts';

definePackage('apiregistration.v1', {
  APIService: { metadata: '1 ObjectMeta', spec: '2 APIServiceSpec', status: '3 APIServiceStatus' },
  APIServiceCondition: { type: '1 !string', status: '2 !string', lastTransitionTime: '3 Time', reason: '4 string', message: '5 string' },
  APIServiceList: { metadata: '1 ListMeta', items: '2 ![]APIService' },
  APIServiceSpec: { service: '1 *ServiceReference', group: '2 string', version: '3 string', insecureSkipTLSVerify: '4 bool', caBundle: '5 bytes list=atomic', groupPriorityMinimum: '7 !int32', versionPriority: '8 !int32' },
  APIServiceStatus: { conditions: '1 []APIServiceCondition list=map(type) patch=merge(type)' },
  ServiceReference: { namespace: '1 string', name: '2 string', port: '3 *int32' },
});
