/** The built-in plugins of kube-apiserver other than the namespace, policy, webhook, quota and pod security ones. */
import './service-account.ts';
import './priority.ts';
import './default-toleration-seconds.ts';
import './taint-nodes-by-condition.ts';
import './runtime-class.ts';
import './storage.ts';
import './certificates.ts';
import './default-ingress-class.ts';
import './pod-topology-labels.ts';
