import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
// grpc-js comes with @temporalio/client; only this test uses it directly, to count calls in flight.
import { InterceptingCall, type Interceptor } from '@grpc/grpc-js';
import { Client, Connection } from '@temporalio/client';
import { startAndWait } from '../../src/temporal/startAndWait';
import { quickJobContract } from '../workflows/quickJob.contract';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { call } from '../helpers/http';
import { harness } from '../helpers/harness';
import { getJob, settled, startTestJob } from './jobTestKit';

describe('start and wait (synchronous job routes)', () => {
  let owner: TestAccount;

  before(async () => {
    owner = await newAccount('Sync Co');
  });

  it('a job that finishes within the bound answers 201 with its result', async () => {
    const res = await startTestJob(owner.ownerToken, 'quick', { value: 'fast' }, { wait_seconds: 10 });
    assert.equal(res.status, 201);
    assert.equal(res.body.result.value, 'fast');
    assert.match(res.body.job_id, new RegExp(`^test_quick:${owner.accountId}:`));
  });

  it('a job still running at the bound answers 202 with the job and a Location to poll, at the bound', async () => {
    const started = Date.now();
    const res = await startTestJob(owner.ownerToken, 'quick', { value: 'slow', delayMs: 2_500 }, { wait_seconds: 0.5 });
    const elapsed = Date.now() - started;
    assert.equal(res.status, 202);
    assert.equal(res.body.status, 'running');
    assert.equal(res.headers.get('location'), `/api/jobs/${res.body.id}`);
    assert.ok(elapsed >= 450 && elapsed < 2_000, `answered after ${elapsed} ms`);
    const polled = await call('GET', res.headers.get('location')!, { token: owner.ownerToken });
    assert.equal(polled.status, 200);
    assert.equal(polled.body.id, res.body.id);
    const done = await settled(owner.ownerToken, res.body.id);
    assert.equal(done.body.result.value, 'slow');
  });

  it('a coded failure within the bound answers its own status and code', async () => {
    const res = await startTestJob(
      owner.ownerToken,
      'failing',
      { code: 'quota_exceeded', message: 'monthly quota reached', status: 429 },
      { wait_seconds: 10 },
    );
    assert.equal(res.status, 429);
    assert.equal(res.body.code, 'quota_exceeded');
    assert.equal(res.body.message, 'monthly quota reached');
  });

  it('a coded failure without a status answers 422', async () => {
    const res = await startTestJob(
      owner.ownerToken,
      'failing',
      { code: 'not_linked', message: 'link the item first' },
      { wait_seconds: 10 },
    );
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'not_linked');
  });

  it('an uncoded failure within the bound answers 500 job_failed without its text', async () => {
    const res = await startTestJob(owner.ownerToken, 'failing', { code: null, message: 'token=sk_live_secret' }, { wait_seconds: 10 });
    assert.equal(res.status, 500);
    assert.equal(res.body.code, 'job_failed');
    assert.doesNotMatch(res.text, /sk_live_secret/);
  });

  it('the same key is the same job: a repeat attaches to the completed run instead of running again', async () => {
    const key = `k-${randomUUID()}`;
    const first = await startTestJob(owner.ownerToken, 'quick', { value: 'once' }, { key, wait_seconds: 10 });
    const second = await startTestJob(owner.ownerToken, 'quick', { value: 'once' }, { key, wait_seconds: 10 });
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.equal(second.body.job_id, first.body.job_id);
    assert.equal(second.body.job_id, `test_quick:${owner.accountId}:${key}`);
    assert.equal(second.body.result.run_id, first.body.result.run_id, 'one run, not two');
  });

  it('the same key while the job runs attaches to the running execution', async () => {
    const key = `k-${randomUUID()}`;
    const first = await startTestJob(owner.ownerToken, 'quick', { value: 'x', delayMs: 2_000 }, { key, wait_seconds: 0.2 });
    const second = await startTestJob(owner.ownerToken, 'quick', { value: 'x', delayMs: 2_000 }, { key, wait_seconds: 0.2 });
    assert.equal(first.status, 202);
    assert.equal(second.status, 202);
    assert.equal(second.body.id, first.body.id);
    assert.equal(second.body.run_id, first.body.run_id);
  });

  it('the same Idempotency-Key answers the same job', async () => {
    const headers = { 'Idempotency-Key': `idem-${randomUUID()}` };
    const first = await startTestJob(owner.ownerToken, 'quick', { value: 'idem' }, { wait_seconds: 10, headers });
    const second = await startTestJob(owner.ownerToken, 'quick', { value: 'idem' }, { wait_seconds: 10, headers });
    assert.equal(first.status, 201);
    assert.equal(second.body.job_id, first.body.job_id);
    assert.equal(second.body.result.run_id, first.body.result.run_id);
    assert.equal(first.body.job_id, `test_quick:${owner.accountId}:${headers['Idempotency-Key']}`);
  });

  it('a failed keyed job may be retried with the same key: a new run of the same job id', async () => {
    const key = `k-${randomUUID()}`;
    const input = { code: 'not_linked', message: 'x' };
    const first = await startTestJob(owner.ownerToken, 'failing', input, { key, wait_seconds: 10 });
    const id = `test_failing:${owner.accountId}:${key}`;
    const firstRun = (await getJob(owner.ownerToken, id)).body.run_id;
    const second = await startTestJob(owner.ownerToken, 'failing', input, { key, wait_seconds: 10 });
    assert.equal(first.status, 422);
    assert.equal(second.status, 422);
    assert.notEqual((await getJob(owner.ownerToken, id)).body.run_id, firstRun);
  });

  it('every start counts in workyard_job_starts_total by kind', async () => {
    const counter = harness().deps.metrics.jobStarts;
    const before = (await counter.get()).values.find((v) => v.labels.kind === 'test_quick')?.value ?? 0;
    await startTestJob(owner.ownerToken, 'quick', { value: 'counted' });
    const after = (await counter.get()).values.find((v) => v.labels.kind === 'test_quick')?.value ?? 0;
    assert.equal(after, before + 1);
  });

  it('a wait that times out leaves no request to Temporal pending and no timer behind', async () => {
    // A client whose connection counts gRPC calls in flight: a result wait abandoned without a deadline would stay open.
    let inFlight = 0;
    const counting: Interceptor = (options, nextCall) =>
      new InterceptingCall(nextCall(options), {
        start(metadata, _listener, next) {
          inFlight += 1;
          let closed = false;
          next(metadata, {
            onReceiveStatus(status, nextStatus) {
              if (!closed) {
                closed = true;
                inFlight -= 1;
              }
              nextStatus(status);
            },
          });
        },
      });
    const { deps, temporalAddress } = harness();
    const connection = await Connection.connect({ address: temporalAddress, interceptors: [counting] });
    try {
      const client = new Client({ connection, namespace: deps.temporal.namespace });
      const countedDeps = { ...deps, temporal: { ...deps.temporal, client } };
      const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
      const baseline = timers();
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const outcome = await startAndWait(
          countedDeps,
          quickJobContract,
          {
            accountId: owner.accountId,
            args: [{ value: `w${i}`, delayMs: 3_000 }],
            requestId: randomUUID(),
          },
          { waitSeconds: 0.3 },
        );
        assert.equal(outcome.status, 'running');
        assert.ok(Date.now() - started < 1_500);
        await new Promise((resolve) => setImmediate(resolve));
        assert.equal(inFlight, 0, 'no gRPC call left open');
      }
      assert.ok(timers() <= baseline + 1, `timers grew from ${baseline} to ${timers()}`);
    } finally {
      await connection.close();
    }
  });
});
