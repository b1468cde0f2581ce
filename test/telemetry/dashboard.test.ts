import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SCHEDULES } from '../../src/app/schedules';
import { createMetrics } from '../../src/http/metrics';
import { knownLabelValues } from '../../src/telemetry/metricsKnownSeries';
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

function dashboard(): { uid: string; panels: Panel[]; templating: { list: Array<Record<string, unknown>> } } {
  return JSON.parse(read('deploy/grafana/dashboards/workyard.json'));
}

/** Metric names in a PromQL expression (a `__name__=~` pattern counts by its literal prefix), histogram suffixes cut. */
function metricNames(expr: string): string[] {
  const names = expr.match(/\b(?:workyard|http|temporal)_[a-z0-9_]*[a-z0-9]/g) ?? [];
  return names.map((name) => name.replace(/_(?:bucket|sum|count)$/, ''));
}

interface Matcher {
  metric: string;
  label: string;
  op: string;
  value: string;
}

/** Each `label op "value"` matcher of a selector on one of our metrics, with that metric's name. */
function matchers(expr: string): Matcher[] {
  const found: Matcher[] = [];
  for (const selector of expr.matchAll(/\b((?:workyard|http)_[a-z0-9_]*[a-z0-9])\{([^}]*)\}/g)) {
    const metric = selector[1].replace(/_(?:bucket|sum|count)$/, '');
    for (const m of selector[2].matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"/g)) {
      found.push({ metric, label: m[1], op: m[2], value: m[3] });
    }
  }
  return found;
}

/** Whether a matcher's value names values the code emits: each alternative when literal, else a pattern matching one. */
function emitted(op: string, value: string, known: readonly string[]): boolean {
  if (op === '=' || op === '!=') return known.includes(value);
  if (/^[a-z0-9_/]+(?:\|[a-z0-9_/]+)*$/.test(value)) return value.split('|').every((v) => known.includes(v));
  const pattern = new RegExp(`^(?:${value})$`);
  return known.some((v) => pattern.test(v));
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

  it('every label value a panel selects on is one the code emits for that metric', () => {
    const known = knownLabelValues(SCHEDULES.map((s) => s.name));
    const wrong: string[] = [];
    for (const panel of dashboard().panels) {
      for (const target of panel.targets ?? []) {
        for (const { metric, label, op, value } of matchers(target.expr)) {
          const values = known[metric]?.[label];
          if (values && !emitted(op, value, values)) wrong.push(`${panel.title}: ${metric}{${label}${op}"${value}"}`);
        }
      }
    }
    assert.deepEqual(wrong, []);
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

  it('every panel reads the data source variable, which defaults to the provisioned Prometheus, so the dashboard imports into any Grafana', () => {
    const uid = read('deploy/grafana/provisioning/datasources/prometheus.yml').match(/^\s*uid:\s*(\S+)/m)?.[1];
    assert.ok(uid);
    const variable = dashboard().templating.list.find((v) => v.name === 'DS_PROMETHEUS');
    assert.ok(variable, 'a DS_PROMETHEUS templating variable');
    assert.equal(variable.type, 'datasource');
    assert.equal(variable.query, 'prometheus');
    assert.equal((variable.current as { value?: string } | undefined)?.value, uid);
    for (const panel of dashboard().panels.filter((p) => p.type !== 'row')) {
      assert.deepEqual(panel.datasource, { type: 'prometheus', uid: '${DS_PROMETHEUS}' }, panel.title);
    }
    assert.doesNotMatch(
      read('deploy/grafana/dashboards/workyard.json'),
      new RegExp(`"uid":\\s*"${uid}"`),
      'no panel or target names the uid itself',
    );
    const prometheus = read('deploy/prometheus/prometheus.yml');
    assert.match(prometheus, /targets: \['api:3000'\]/);
    assert.match(prometheus, /targets: \['worker:9464'\]/);
  });
});
