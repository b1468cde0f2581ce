import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createMetrics } from '../../src/http/metrics';
import { REPO_ROOT } from '../runtime/child';

// The provisioned Grafana dashboard (deploy/grafana/dashboards/workyard.json) must keep querying series the app
// really exports: a renamed metric would otherwise leave a panel silently empty.

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** Series the Temporal SDK's Prometheus exporter writes (they keep their own `temporal_` names). */
const TEMPORAL_SDK_SERIES = new Set([
  'temporal_worker_task_slots_available',
  'temporal_worker_task_slots_used',
  'temporal_workflow_task_schedule_to_start_latency',
  'temporal_activity_schedule_to_start_latency',
  'temporal_workflow_task_execution_latency',
  'temporal_activity_execution_latency',
]);

interface Panel {
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: Array<{ expr: string }>;
}

function dashboard(): { uid: string; panels: Panel[] } {
  return JSON.parse(read('deploy/grafana/dashboards/workyard.json'));
}

/** Metric names in a PromQL expression (a `__name__=~` pattern counts by its literal prefix), histogram suffixes cut. */
function metricNames(expr: string): string[] {
  const names = expr.match(/\b(?:workyard|http|temporal)_[a-z0-9_]*[a-z0-9]/g) ?? [];
  return names.map((name) => name.replace(/_(?:bucket|sum|count)$/, ''));
}

/** Every series name the API's /metrics writes: the app's registry (domain metrics merged in) and metricsText's own. */
async function exportedNames(): Promise<Set<string>> {
  const names = (await createMetrics(false).registry.getMetricsAsJSON()).map((m) => m.name);
  const written = [...read('src/telemetry/metricsText.ts').matchAll(/# TYPE (\S+)/g)].map((m) => m[1]);
  return new Set([...names, ...written]);
}

describe('Grafana dashboard (deploy/grafana)', () => {
  it('every metric a panel queries is one the app or the Temporal SDK exports', async () => {
    const exported = await exportedNames();
    const unknown: string[] = [];
    for (const panel of dashboard().panels) {
      for (const target of panel.targets ?? []) {
        for (const name of metricNames(target.expr)) {
          if (!exported.has(name) && !TEMPORAL_SDK_SERIES.has(name)) unknown.push(`${panel.title}: ${name}`);
        }
      }
    }
    assert.deepEqual(unknown, []);
  });

  it('covers job throughput and failures, job duration, webhook intake, platform errors and rate limits, schedules and HTTP', () => {
    const queried = new Set(dashboard().panels.flatMap((p) => (p.targets ?? []).flatMap((t) => metricNames(t.expr))));
    for (const name of [
      'workyard_job_starts_total',
      'workyard_jobs_closed_total',
      'workyard_job_duration_seconds',
      'workyard_webhook_deliveries_total',
      'workyard_platform_calls_total',
      'workyard_rate_limit_refusals_total',
      'workyard_schedule_runs_total',
      'http_request_duration_seconds',
      'temporal_worker_task_slots_available',
    ]) {
      assert.ok(queried.has(name), `no panel queries ${name}`);
    }
  });

  it('every panel reads the provisioned Prometheus data source, which Prometheus fills from the api and the worker', () => {
    const uid = read('deploy/grafana/provisioning/datasources/prometheus.yml').match(/^\s*uid:\s*(\S+)/m)?.[1];
    assert.ok(uid);
    for (const panel of dashboard().panels.filter((p) => p.type !== 'row')) {
      assert.equal(panel.datasource?.uid, uid, panel.title);
    }
    const prometheus = read('deploy/prometheus/prometheus.yml');
    assert.match(prometheus, /targets: \['api:3000'\]/);
    assert.match(prometheus, /targets: \['worker:9464'\]/);
  });
});
