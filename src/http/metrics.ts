import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { domainRegistry } from '../telemetry/metrics';

export interface Metrics {
  /** This app's series merged with the process-wide domain metrics (src/telemetry/metrics.ts). */
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  jobStarts: Counter<'kind'>;
  /** Distinct provider fingerprints among the workers polling the task queue (src/http/workersCheck.ts): 1 is healthy. */
  workerFingerprints: Gauge<'task_queue'>;
}

/** One registry per app (tests build several apps, so never the global default). */
export function createMetrics(withDefaults = true): Metrics {
  const registry = new Registry();
  if (withDefaults) collectDefaultMetrics({ register: registry });
  const metrics: Omit<Metrics, 'registry'> = {
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'API request duration by matched route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    jobStarts: new Counter({
      name: 'workyard_job_starts_total',
      help: 'Jobs (workflow executions) started, by kind',
      labelNames: ['kind'],
      registers: [registry],
    }),
    workerFingerprints: new Gauge({
      name: 'workyard_worker_fingerprints',
      help: 'Distinct provider-settings fingerprints among the workers polling the task queue (1: they agree; 0: no worker polls)',
      labelNames: ['task_queue'],
      registers: [registry],
    }),
  };
  return { registry: Registry.merge([registry, domainRegistry]), ...metrics };
}
