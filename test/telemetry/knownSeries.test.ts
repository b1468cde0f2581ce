import assert from 'node:assert/strict';
import { SCHEDULES } from '../../src/app/schedules';
import { freePort } from '../../src/dev/ports';
import { startWorkerMetrics } from '../../src/runtime/worker';
import { EMAIL_SEND_OUTCOMES, JOB_OUTCOMES, LIMITERS } from '../../src/telemetry/metrics';
import { defineSchedule } from '../../src/temporal/schedules';
import { call } from '../helpers/http';
import { harness } from '../helpers/harness';
import { quickJobContract } from '../workflows/quickJob.contract';

/** The value of the series with exactly these labels in Prometheus text, undefined when it is absent. */
function series(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const got = match[2]
      .split(/,(?=[a-zA-Z_]+=")/)
      .sort()
      .join(',');
    if (got === wanted) return Number(match[3]);
  }
  return undefined;
}

describe('metrics: series known in advance start at 0', () => {
  it("right after start, the worker's /metrics shows each schedule's run and close counters, each limiter and each email outcome at 0", async () => {
    const never = defineSchedule(quickJobContract, {
      name: `test-never-run-${process.pid}`,
      cron: '0 3 1 1 *',
      args: [{ value: 'never' }],
      overlap: 'SKIP',
      description: 'A schedule no test runs.',
    });
    const server = await startWorkerMetrics({ HOST: '127.0.0.1', METRICS_PORT: await freePort(0) }, [...SCHEDULES, never]);
    assert.ok(server);
    try {
      const text = await (await fetch(server.url)).text();
      for (const { name } of [...SCHEDULES, never]) {
        for (const outcome of JOB_OUTCOMES) {
          assert.notEqual(series(text, 'workyard_schedule_runs_total', { schedule: name, outcome }), undefined, `${name} ${outcome}`);
          assert.notEqual(series(text, 'workyard_jobs_closed_total', { kind: name, outcome }), undefined, `${name} ${outcome}`);
        }
      }
      for (const outcome of JOB_OUTCOMES) {
        assert.equal(series(text, 'workyard_schedule_runs_total', { schedule: never.name, outcome }), 0);
        assert.equal(series(text, 'workyard_jobs_closed_total', { kind: never.name, outcome }), 0);
      }
      for (const limiter of LIMITERS) assert.notEqual(series(text, 'workyard_rate_limit_refusals_total', { limiter }), undefined, limiter);
      for (const outcome of EMAIL_SEND_OUTCOMES)
        assert.notEqual(series(text, 'workyard_email_sends_total', { outcome }), undefined, outcome);
    } finally {
      await server.stop();
    }
  });

  it("the API's /metrics shows its schedule table's run counters from the start", async () => {
    const res = await call('GET', '/metrics');
    assert.equal(res.status, 200);
    for (const { name } of harness().deps.schedules) {
      for (const outcome of JOB_OUTCOMES) {
        assert.notEqual(series(res.text, 'workyard_schedule_runs_total', { schedule: name, outcome }), undefined, `${name} ${outcome}`);
      }
    }
  });
});
