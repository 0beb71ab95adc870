import { defineDocs } from './define.ts';
import * as c from './shared/certificates.ts';

const docs = {
  ClusterTrustBundle: c.ClusterTrustBundle,
  ClusterTrustBundleList: c.ClusterTrustBundleList,
  ClusterTrustBundleSpec: c.ClusterTrustBundleSpec,
};

defineDocs('certificates.v1alpha1', docs);
export default docs;
