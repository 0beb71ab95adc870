/**
 * Services (pkg/apis/core/validation/validation.go: ValidateService, validateServicePort,
 * ValidateServiceClusterIPsRelatedFields, validateServiceExternalTrafficPolicy, ValidateServiceUpdate).
 * Node port ranges and cluster IP allocation are the allocators' business; this checks shape and syntax.
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { CIDR_ERROR, IP_ERROR, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPortNum, ipFamilyOf, parseCIDR } from '../../machinery/validation/names.ts';
import { validatePortNumOrName } from './core-containers.ts';
import { type J, arr, isSet, obj, str, validateLabels } from './util.ts';
import { GO_NULL, goDuplicate, goIntOrString, goInvalid, goQuote, goStrings } from './go-render.ts';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const AFFINITIES = ['ClientIP', 'None'];
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;

function isHeadless(spec: J): boolean {
  const ips = arr(spec['clusterIPs']);
  return ips.length === 1 && ips[0] === 'None';
}

/** ValidateNonSpecialIP (external IPs). */
function nonSpecialIP(ip: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const fam = ipFamilyOf(ip);
  const v4 = fam === 4 ? ip.split('.').map(Number) : [];
  const lower = ip.toLowerCase();
  if ((fam === 4 && v4.every((n) => n === 0)) || (fam === 6 && /^[0:]+$/.test(lower))) errs.push(field.invalid(path, ip, `may not be unspecified (${ip})`));
  if ((fam === 4 && v4[0] === 127) || (fam === 6 && /^(0*:)*:?0*1$/.test(lower) && lower !== '1')) errs.push(field.invalid(path, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if ((fam === 4 && v4[0] === 169 && v4[1] === 254) || (fam === 6 && /^fe[89ab]/.test(lower))) errs.push(field.invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if ((fam === 4 && v4[0] === 224 && v4[1] === 0 && v4[2] === 0) || (fam === 6 && /^ff02:/.test(lower))) errs.push(field.invalid(path, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

function validateServicePort(sp: J, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(sp['name']);
  if (requireName && !name) errs.push(field.required(`${path}.name`));
  else if (name) {
    for (const m of isDNS1123Label(name)) errs.push(field.invalid(`${path}.name`, name, m));
    if (names.has(name)) errs.push(field.duplicate(`${path}.name`, name));
    else names.add(name);
  }
  const port = typeof sp['port'] === 'number' ? sp['port'] : 0;
  for (const m of isValidPortNum(port)) errs.push(field.invalid(`${path}.port`, port, m));
  const proto = str(sp['protocol']);
  if (proto && !PROTOCOLS.includes(proto)) errs.push(field.notSupported(`${path}.protocol`, proto, PROTOCOLS));
  // targetPort is defaulted to port when absent.
  errs.push(...validatePortNumOrName(sp['targetPort'] ?? port, `${path}.targetPort`));
  if (isSet(sp['appProtocol'])) {
    const ap = str(sp['appProtocol']);
    for (const m of isQualifiedName(ap)) errs.push(field.invalid(`${path}.appProtocol`, ap, m));
  }
  return errs;
}

function validateClusterIPs(spec: J): FieldError[] {
  if (spec['type'] === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const clusterIP = str(spec['clusterIP']);
  const ips = arr(spec['clusterIPs']).map(str);
  if (clusterIP) {
    if (ips.length === 0) errs.push(field.required('spec.clusterIPs'));
    else if (ips[0] !== clusterIP) errs.push(goInvalid('spec.clusterIPs', goStrings(ips), 'first value must match `clusterIP`'));
  } else if (ips.length !== 0) {
    errs.push(goInvalid('spec.clusterIPs', goStrings(ips), 'must be empty when `clusterIP` is not specified'));
  }
  const families = arr(spec['ipFamilies']).map(str);
  const seen = new Set<string>();
  families.forEach((f, i) => {
    if (f !== 'IPv4' && f !== 'IPv6') errs.push(field.notSupported(`spec.ipFamilies[${i}]`, f, ['IPv4', 'IPv6']));
    if (seen.has(f)) errs.push(field.duplicate(`spec.ipFamilies[${i}]`, f));
    seen.add(f);
  });
  const policy = spec['ipFamilyPolicy'];
  const policies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
  if (isSet(policy) && !policies.includes(str(policy))) errs.push(field.notSupported('spec.ipFamilyPolicy', policy, policies));
  let invalidIPs = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        invalidIPs = true;
        errs.push(goInvalid('spec.clusterIPs', goStrings(ips), "'None' must be the first and only value"));
      }
      return;
    }
    if (!ipFamilyOf(ip)) {
      invalidIPs = true;
      errs.push(field.invalid(`spec.clusterIPs[${i}]`, ip, IP_ERROR));
    }
  });
  if (ips.length > 2) errs.push(goInvalid('spec.clusterIPs', goStrings(ips), 'may only hold up to 2 values'));
  if (invalidIPs) return errs;
  if (ips.length > 1 && ipFamilyOf(ips[0]!) === ipFamilyOf(ips[1]!)) errs.push(goInvalid('spec.clusterIPs', goStrings(ips), 'may specify no more than one IP for each IP family'));
  if (!isHeadless(spec) && ips.length > 0 && families.length > 0) {
    ips.forEach((ip, i) => {
      if (i > families.length - 1) return;
      const v6 = ipFamilyOf(ip) === 6;
      if (families[i] === 'IPv4' && v6) errs.push(field.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && !v6) errs.push(field.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

/** ValidateService minus ObjectMeta (the DNS-1035 name rule is the resource's NameRule, `dns1035-label`). */
export function validateService(svc: J): FieldError[] {
  const errs: FieldError[] = [];
  const spec = obj(svc['spec']);
  const type = str(spec['type']) || 'ClusterIP';
  const ports = arr(spec['ports']).map(obj);
  const headless = isHeadless(spec);
  if (ports.length === 0 && !headless && type !== 'ExternalName') errs.push(field.required('spec.ports'));
  if (type === 'LoadBalancer' && headless) errs.push(field.invalid('spec.clusterIPs[0]', 'None', "may not be set to 'None' for LoadBalancer services"));
  if (type === 'NodePort' && headless) errs.push(field.invalid('spec.clusterIPs[0]', 'None', "may not be set to 'None' for NodePort services"));
  if (type === 'ExternalName') {
    if (arr(spec['clusterIPs']).length > 0) errs.push(field.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if (arr(spec['ipFamilies']).length > 0) errs.push(field.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (isSet(spec['ipFamilyPolicy'])) errs.push(field.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    const cname = str(spec['externalName']).replace(/\.$/, '');
    if (cname) for (const m of isDNS1123Subdomain(cname)) errs.push(field.invalid('spec.externalName', cname, m));
    else errs.push(field.required('spec.externalName'));
  }
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, `spec.ports[${i}]`)));
  if (isSet(spec['selector'])) errs.push(...validateLabels(spec['selector'], 'spec.selector'));
  const affinity = str(spec['sessionAffinity']) || 'None';
  if (!AFFINITIES.includes(affinity)) errs.push(field.notSupported('spec.sessionAffinity', affinity, AFFINITIES));
  if (affinity === 'ClientIP') {
    const cfg = spec['sessionAffinityConfig'];
    const detail = 'when session affinity type is ClientIP';
    if (!isSet(cfg)) errs.push(field.required('spec.sessionAffinityConfig', detail));
    else if (!isSet(obj(cfg)['clientIP'])) errs.push(field.required('spec.sessionAffinityConfig.clientIP', detail));
    else {
      const t = obj(obj(cfg)['clientIP'])['timeoutSeconds'];
      if (!isSet(t)) errs.push(field.required('spec.sessionAffinityConfig.clientIP.timeoutSeconds', detail));
      else if (Number(t) <= 0 || Number(t) > MAX_CLIENT_IP_AFFINITY_SECONDS) {
        errs.push(field.invalid('spec.sessionAffinityConfig.clientIP.timeoutSeconds', t, `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`));
      }
    }
  } else if (affinity === 'None' && isSet(spec['sessionAffinityConfig'])) {
    errs.push(field.forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  errs.push(...validateClusterIPs(spec));
  arr(spec['externalIPs']).map(str).forEach((ip, i) => {
    if (!ipFamilyOf(ip)) errs.push(field.invalid(`spec.externalIPs[${i}]`, ip, IP_ERROR));
    else errs.push(...nonSpecialIP(ip, `spec.externalIPs[${i}]`));
  });
  if (!TYPES.includes(type)) errs.push(field.notSupported('spec.type', type, TYPES));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => { if (p['nodePort']) errs.push(field.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'")); });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (!p['nodePort']) return;
    const key = `${str(p['protocol']) || 'TCP'}/${String(p['nodePort'])}`;
    if (nodePorts.has(key)) errs.push(field.duplicate(`spec.ports[${i}].nodePort`, p['nodePort']));
    nodePorts.add(key);
  });
  const portKeys = new Set<string>();
  ports.forEach((p, i) => {
    const proto = str(p['protocol']) || 'TCP';
    const key = `${proto}/${String(p['port'])}`;
    // kube prints the internal ServicePort key struct as JSON with Go field names.
    if (portKeys.has(key)) {
      errs.push(goDuplicate(`spec.ports[${i}]`,
        `core.ServicePort{Name:"", Protocol:${goQuote(proto)}, AppProtocol:(*string)(nil), Port:${Number(p['port'])}, TargetPort:${goIntOrString(0)}, NodePort:0}`));
    }
    portKeys.add(key);
  });
  const ranges = arr(spec['loadBalancerSourceRanges']).map(str);
  if (ranges.length > 0) {
    if (type !== 'LoadBalancer') errs.push(field.forbidden('spec.LoadBalancerSourceRanges', "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((r, i) => { if (!parseCIDR(r.trim())) errs.push(field.invalid(`spec.LoadBalancerSourceRanges[${i}]`, r.trim(), CIDR_ERROR)); });
  }
  if (isSet(spec['allocateLoadBalancerNodePorts']) && type !== 'LoadBalancer') {
    errs.push(field.forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  const external = type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && arr(spec['externalIPs']).length > 0);
  const etp = str(spec['externalTrafficPolicy']);
  if (!external && etp) errs.push(field.invalid('spec.externalTrafficPolicy', etp, 'may only be set for externally-accessible services'));
  if (external && etp && etp !== 'Cluster' && etp !== 'Local') errs.push(field.notSupported('spec.externalTrafficPolicy', etp, ['Cluster', 'Local']));
  const hc = typeof spec['healthCheckNodePort'] === 'number' ? spec['healthCheckNodePort'] : 0;
  const needsHC = type === 'LoadBalancer' && etp === 'Local';
  if (!needsHC && hc !== 0) errs.push(field.invalid('spec.healthCheckNodePort', hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  if (needsHC && hc !== 0) for (const m of isValidPortNum(hc)) errs.push(field.invalid('spec.healthCheckNodePort', hc, m));
  const itp = spec['internalTrafficPolicy'];
  if (isSet(itp) && itp !== 'Cluster' && itp !== 'Local') errs.push(field.notSupported('spec.internalTrafficPolicy', itp, ['Cluster', 'Local']));
  const td = spec['trafficDistribution'];
  if (isSet(td) && td !== 'PreferClose') errs.push(field.notSupported('spec.trafficDistribution', td, ['PreferClose']));
  return errs;
}

/** ValidateServiceUpdate minus ObjectMeta: cluster IPs and families may not change once set. */
export function validateServiceUpdate(svc: J, old: J): FieldError[] {
  const errs: FieldError[] = [];
  const spec = obj(svc['spec']);
  const oldSpec = obj(old['spec']);
  const ext = spec['type'] === 'ExternalName' || oldSpec['type'] === 'ExternalName';
  if (!ext && !(isHeadless(spec) && isHeadless(oldSpec))) {
    const ips = arr(spec['clusterIPs']).map(str);
    const oldIps = arr(oldSpec['clusterIPs']).map(str);
    if (ips.length === oldIps.length) {
      const rendered = goStrings(spec['clusterIPs']);
      oldIps.forEach((ip, i) => { if (ip !== ips[i]) errs.push(goInvalid(`spec.clusterIPs[${i}]`, rendered, 'may not change once set')); });
    } else if (oldIps.length > ips.length) {
      const rendered = goStrings(spec['clusterIPs']);
      if (ips.length === 0) errs.push(goInvalid('spec.clusterIPs[0]', rendered, 'primary clusterIP can not be unset'));
      if (oldIps.length > 0 && ips.length > 0 && ips[0] !== oldIps[0]) errs.push(goInvalid('spec.clusterIPs[0]', rendered, 'may not change once set'));
      if (ips.length === 1 && spec['ipFamilyPolicy'] !== 'SingleStack') {
        const policy = spec['ipFamilyPolicy'];
        errs.push(goInvalid('spec.ipFamilyPolicy', isSet(policy) ? goQuote(str(policy)) : GO_NULL, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
      }
    } else if (oldIps.length > 0 && ips[0] !== oldIps[0]) {
      errs.push(goInvalid('spec.clusterIPs[0]', goStrings(spec['clusterIPs']), 'may not change once set'));
    }
  }
  return [...errs, ...validateService(svc)];
}
