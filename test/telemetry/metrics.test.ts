import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config';
import { freePort } from '../../src/dev/ports';
import { createCommerceClient } from '../../src/clients/commerce';
import { createSitePlatformClient, TokenBucket } from '../../src/clients/sitePlatform';
import { startWorkerMetrics } from '../../src/runtime/worker';
import { operationOf } from '../../src/telemetry/metrics';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { call } from '../helpers/http';
import { harness } from '../helpers/harness';
import { deliver, newShop, sign, type TestShop } from '../commerce/webhooks/receiverKit';
import { emailKey, message, senderAccount, settledEmail, startSendWorld } from '../email/send/kit';
import { eventually, jobUrl, startTestJob } from '../jobs/jobTestKit';

/** The value of one series in Prometheus text (the line whose labels include all of `labels`), 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = new Map([...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found.get(k) === v)) return Number(match[3]);
  }
  return 0;
}

async function scrape(): Promise<string> {
  const res = await call('GET', '/metrics');
  assert.equal(res.status, 200);
  return res.text;
}

/** Scrapes until the series has grown by `by` from `before` (sinks and scrapes are asynchronous to the job's answer). */
async function grows(name: string, labels: Record<string, string>, before: number, by = 1): Promise<string> {
  return eventually(scrape, (text) => sample(text, name, labels) >= before + by, 10_000, `${name}${JSON.stringify(labels)} to grow`);
}

/** A loopback HTTP server answering every request with `answer`. */
async function fakePlatform(answer: (req: http.IncomingMessage) => { status: number; body: unknown }) {
  const server = http.createServer((req, res) => {
    const { status, body } = answer(req);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('metrics: GET /metrics', () => {
  let owner: TestAccount;

  before(async () => {
    owner = await newAccount('Metrics Co');
  });

  it('after a job ran, /metrics carries the Temporal SDK series beside ours, and the job counts as closed completed with its duration', async () => {
    const labels = { kind: 'test_quick', outcome: 'completed' };
    const before = sample(await scrape(), 'workyard_jobs_closed_total', labels);
    const durations = sample(await scrape(), 'workyard_job_duration_seconds_count', labels);
    const res = await startTestJob(owner.ownerToken, 'quick', { value: 'metered' }, { wait_seconds: 10 });
    assert.equal(res.status, 201);
    const text = await grows('workyard_jobs_closed_total', labels, before);
    assert.ok(sample(text, 'workyard_job_duration_seconds_count', labels) >= durations + 1);
    assert.ok(sample(text, 'workyard_job_starts_total', { kind: 'test_quick' }) >= 1);
    assert.equal(sample(text, 'workyard_temporal_metrics_up'), 1);
    const clientCalls = { operation: 'StartWorkflowExecution', status: 'OK' };
    assert.ok(sample(text, 'workyard_temporal_client_requests_total', clientCalls) >= 1, 'the API client counts its calls');
    assert.ok(sample(text, 'workyard_temporal_client_request_duration_seconds_count', { operation: 'StartWorkflowExecution' }) >= 1);
    const sdk = await eventually(scrape, (t) => sample(t, 'temporal_workflow_completed', { workflow_type: 'quickJobWorkflow' }) >= 1);
    assert.match(sdk, /^temporal_worker_task_slots_available\{/m);
    assert.match(sdk, /^temporal_request\{/m, 'the native connection (client side of the worker) reports its calls');
  });

  it('a failed job counts as closed failed', async () => {
    const labels = { kind: 'test_failing', outcome: 'failed' };
    const before = sample(await scrape(), 'workyard_jobs_closed_total', labels);
    const res = await startTestJob(owner.ownerToken, 'failing', { code: 'not_linked', message: 'link it first' }, { wait_seconds: 10 });
    assert.equal(res.status, 422);
    await grows('workyard_jobs_closed_total', labels, before);
  });

  it('a canceled job counts as closed canceled', async () => {
    const labels = { kind: 'test_stepped', outcome: 'canceled' };
    const before = sample(await scrape(), 'workyard_jobs_closed_total', labels);
    const started = await startTestJob(owner.ownerToken, 'stepped', { steps: 50, stepMs: 200 });
    assert.equal(started.status, 202);
    assert.equal((await call('POST', `${jobUrl(started.body.id)}/cancel`, { token: owner.ownerToken })).status, 202);
    await grows('workyard_jobs_closed_total', labels, before);
  });

  it('a schedule run counts by schedule and outcome', async () => {
    const labels = { schedule: 'test-quick-sweep', outcome: 'completed' };
    const before = sample(await scrape(), 'workyard_schedule_runs_total', labels);
    const res = await call('POST', '/api/cron/test-quick-sweep', { token: harness().deps.config.CRON_SECRET! });
    assert.ok(res.status === 200 || res.status === 202, res.text);
    await grows('workyard_schedule_runs_total', labels, before);
  });

  describe('inbound webhook deliveries', () => {
    let shop: TestShop;
    before(async () => {
      shop = await newShop({ subscriptions: ['orders/create'] });
    });

    it('a verified delivery counts by platform, topic and outcome; an unverified one by its refusal, without its claimed topic', async () => {
      const accepted = { platform: 'commerce', topic: 'orders/create', outcome: 'accepted' };
      const refused = { platform: 'commerce', topic: 'unverified', outcome: 'webhook_signature_invalid' };
      const text = await scrape();
      const [acceptedBefore, refusedBefore] = [
        sample(text, 'workyard_webhook_deliveries_total', accepted),
        sample(text, 'workyard_webhook_deliveries_total', refused),
      ];
      const body = { id: 990001, email: 'metrics@example.test', updated_at: '2026-11-02T08:00:00Z' };
      assert.equal((await deliver(shop, 'orders/create', body)).status, 200);
      assert.equal((await deliver(shop, 'orders/create', body, { signature: sign('not-the-secret', 'x') })).status, 401);
      const after = await scrape();
      assert.equal(sample(after, 'workyard_webhook_deliveries_total', accepted), acceptedBefore + 1);
      assert.equal(sample(after, 'workyard_webhook_deliveries_total', refused), refusedBefore + 1);
    });
  });

  describe('platform calls and local rate limits', () => {
    it('a commerce call counts by operation and status', async () => {
      const platform = await fakePlatform(() => ({ status: 200, body: { shop: { id: 7, name: 'Metered shop' } } }));
      try {
        const labels = { platform: 'commerce', operation: 'GET shop.json', status: '200' };
        const before = sample(await scrape(), 'workyard_platform_calls_total', labels);
        const client = createCommerceClient({ COMMERCE_SHOP_URL_TEMPLATE: platform.url });
        await client.getShop({ shopDomain: 'metered.commerce.test', accessToken: 'shpat_test' });
        assert.equal(sample(await scrape(), 'workyard_platform_calls_total', labels), before + 1);
      } finally {
        await platform.close();
      }
    });

    it('a site platform call counts under its path template (no ids), and a call refused by the local bucket counts as a refusal', async () => {
      const platform = await fakePlatform(() => ({ status: 404, body: { message: 'no such site' } }));
      try {
        const labels = { platform: 'site_platform', operation: 'GET /v2/sites/{id}/collections', status: '404' };
        const text = await scrape();
        const before = sample(text, 'workyard_platform_calls_total', labels);
        const refusalsBefore = sample(text, 'workyard_rate_limit_refusals_total', { limiter: 'site_platform_bucket' });
        const bucket = new TokenBucket(60);
        const client = createSitePlatformClient({ apiUrl: platform.url, token: 'tok', timeoutMs: 2_000, bucket });
        await assert.rejects(client.request({ method: 'GET', base: 'v2', path: '/sites/64f0c1a2b3c4d5e6f7a8b9c0/collections' }));
        bucket.holdFor(60_000);
        await assert.rejects(client.request({ method: 'GET', base: 'v2', path: '/sites/64f0c1a2b3c4d5e6f7a8b9c0/collections' }));
        const after = await scrape();
        assert.equal(sample(after, 'workyard_platform_calls_total', labels), before + 1, 'the refused call never reached the platform');
        assert.equal(sample(after, 'workyard_rate_limit_refusals_total', { limiter: 'site_platform_bucket' }), refusalsBefore + 1);
        assert.doesNotMatch(after, /64f0c1a2b3c4d5e6f7a8b9c0/);
      } finally {
        await platform.close();
      }
    });

    it('operation labels are path templates: resource names stay, ids become {id}', () => {
      assert.equal(operationOf('GET', '/v2/sites/64f0c1a2b3c4d5e6f7a8b9c0/pages'), 'GET /v2/sites/{id}/pages');
      assert.equal(operationOf('DELETE', '/v2/webhooks/abc-123'), 'DELETE /v2/webhooks/{id}');
      assert.equal(operationOf('GET', '/token/authorized_by'), 'GET /token/authorized_by');
    });
  });

  describe('email sends', () => {
    it('a delivered send counts as sent, a test key send as simulated, and a send over the per-second limit as a refusal', async () => {
      const labels = ['sent', 'simulated'].map((outcome) => ({ outcome }));
      const refusal = { limiter: 'email_per_second' };
      const world = await startSendWorld();
      try {
        const account = await senderAccount();
        const live = await emailKey(account.accountId, { environment: 'live' });
        const test = await emailKey(account.accountId, { environment: 'test', ratePerSecond: 1 });
        const text = await scrape();
        const [sent, simulated] = labels.map((l) => sample(text, 'workyard_email_sends_total', l));
        const refused = sample(text, 'workyard_rate_limit_refusals_total', refusal);
        const accepted = await world.app.call('POST', '/v1/email/send', { token: live.token, body: message() });
        assert.equal(accepted.status, 202);
        // The delivery attempt (this process's worker) counts it once the relay took it.
        assert.equal((await settledEmail(world, live.token, accepted.body.id)).body.status, 'sent');
        assert.equal((await world.app.call('POST', '/v1/email/send', { token: test.token, body: message() })).status, 200);
        assert.equal((await world.app.call('POST', '/v1/email/send', { token: test.token, body: message() })).status, 429);
        const after = await scrape();
        assert.equal(sample(after, 'workyard_email_sends_total', labels[0]), sent + 1);
        assert.equal(sample(after, 'workyard_email_sends_total', labels[1]), simulated + 1);
        assert.equal(sample(after, 'workyard_rate_limit_refusals_total', refusal), refused + 1);
      } finally {
        await world.close();
      }
    });
  });

  describe("the worker process's METRICS_PORT endpoint", () => {
    it('defaults to 9464 and 0 turns it off', async () => {
      assert.equal(loadConfig({ ...process.env, METRICS_PORT: undefined }).METRICS_PORT, 9464);
      assert.equal(await startWorkerMetrics({ HOST: '127.0.0.1', METRICS_PORT: 0 }), null);
    });

    it('answers GET /metrics with the domain and Temporal SDK series, 404 elsewhere, and stops', async () => {
      const port = await freePort(0);
      const server = await startWorkerMetrics({ HOST: '127.0.0.1', METRICS_PORT: port });
      assert.ok(server);
      try {
        assert.equal(server.url, `http://127.0.0.1:${port}/metrics`);
        const res = await fetch(server.url);
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
        const text = await res.text();
        assert.match(text, /^# TYPE workyard_jobs_closed_total counter$/m);
        assert.match(text, /^process_cpu_user_seconds_total /m);
        assert.match(text, /^workyard_temporal_metrics_up 1$/m);
        assert.match(text, /^temporal_worker_task_slots_available\{/m);
        assert.equal((await fetch(`http://127.0.0.1:${port}/other`)).status, 404);
      } finally {
        await server.stop();
      }
      await assert.rejects(fetch(server.url));
    });

    it('a second worker on one host is told METRICS_PORT is in use, with what to set instead', async () => {
      const first = await startWorkerMetrics({ HOST: '127.0.0.1', METRICS_PORT: await freePort(0) });
      assert.ok(first);
      try {
        const port = Number(new URL(first.url).port);
        await assert.rejects(startWorkerMetrics({ HOST: '127.0.0.1', METRICS_PORT: port }), (err: Error) => {
          assert.equal(err.name, 'CliError');
          assert.equal(
            err.message,
            `METRICS_PORT: 127.0.0.1:${port} is already in use; set another port, or 0 to turn the worker's metrics off`,
          );
          return true;
        });
      } finally {
        await first.stop();
      }
    });
  });
});
