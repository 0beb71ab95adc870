/**
 * kube-apiserver's apiserver_flowcontrol_* families (apiserver/pkg/util/flowcontrol/metrics, v1.33 names, labels,
 * help and stability; labels in sorted order, as client_golang prints them) read from the controller's snapshot
 * when /metrics is scraped, so the request path only bumps plain counters. Not served: the timing-ratio
 * histograms, R/S bounds, demand and wait-duration families.
 */
import type { MetricsRegistry } from '../machinery/metrics/registry.ts';
import type { FlowControlStats, FlowControlSnapshot, PriorityLevelSnapshot, SchemaStats } from './controller.ts';

type Pl = 'priority_level';
type PlFs = 'priority_level' | 'flow_schema';

export function registerFlowControlMetrics(reg: MetricsRegistry, stats: FlowControlStats): void {
  // A fresh snapshot per family: a few levels and schemas, so cheaper than any cache that could go stale.
  const snap = (): FlowControlSnapshot => stats.snapshot();
  const perSchema = (name: string, help: string, stabilityLevel: 'ALPHA' | 'BETA', value: (s: SchemaStats) => number): void => {
    const g = reg.gauge<PlFs>({
      name, help, stabilityLevel, labelNames: ['flow_schema', 'priority_level'],
      collect: () => {
        g.reset();
        for (const s of snap().flowSchemas) g.set({ flow_schema: s.flowSchema, priority_level: s.priorityLevel }, value(s));
      },
    });
  };
  const perLevel = (name: string, help: string, stabilityLevel: 'ALPHA' | 'BETA', value: (l: PriorityLevelSnapshot) => number): void => {
    const g = reg.gauge<Pl>({
      name, help, stabilityLevel, labelNames: ['priority_level'],
      collect: () => {
        g.reset();
        for (const l of snap().priorityLevels) g.set({ priority_level: l.name }, value(l));
      },
    });
  };

  const rejected = reg.counter<PlFs | 'reason'>({
    name: 'apiserver_flowcontrol_rejected_requests_total', help: 'Number of requests rejected by API Priority and Fairness subsystem',
    stabilityLevel: 'BETA', labelNames: ['flow_schema', 'priority_level', 'reason'],
    collect: () => {
      rejected.reset();
      for (const s of snap().flowSchemas) {
        for (const [reason, n] of Object.entries(s.rejected)) if (n > 0) rejected.inc({ flow_schema: s.flowSchema, priority_level: s.priorityLevel, reason }, n);
      }
    },
  });
  const dispatched = reg.counter<PlFs>({
    name: 'apiserver_flowcontrol_dispatched_requests_total', help: 'Number of requests executed by API Priority and Fairness subsystem',
    stabilityLevel: 'BETA', labelNames: ['flow_schema', 'priority_level'],
    collect: () => {
      dispatched.reset();
      for (const s of snap().flowSchemas) if (s.dispatched > 0) dispatched.inc({ flow_schema: s.flowSchema, priority_level: s.priorityLevel }, s.dispatched);
    },
  });
  perSchema('apiserver_flowcontrol_current_inqueue_requests', 'Number of requests currently pending in queues of the API Priority and Fairness subsystem', 'BETA', (s) => s.waiting);
  perSchema('apiserver_flowcontrol_current_executing_requests', 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem', 'BETA', (s) => s.executing);
  perLevel('apiserver_flowcontrol_nominal_limit_seats', 'Nominal number of execution seats configured for each priority level', 'BETA', (l) => l.nominalLimit);
  perLevel('apiserver_flowcontrol_lower_limit_seats', 'Configured lower bound on number of execution seats available to each priority level', 'ALPHA', (l) => l.lowerLimit);
  perLevel('apiserver_flowcontrol_upper_limit_seats', 'Configured upper bound on number of execution seats available to each priority level', 'ALPHA', (l) => l.upperLimit);
  perLevel('apiserver_flowcontrol_current_limit_seats', 'current derived number of execution seats available to each priority level', 'ALPHA', (l) => l.currentLimit);
}
