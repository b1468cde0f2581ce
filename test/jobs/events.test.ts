import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createApiServer } from '../../src/app/server';
import { closeServer } from '../../src/runtime/api';
import { jobSearchAttributes } from '../../src/temporal/jobs';
import { newAccount, newAgentKey, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { jobUrl, settled, startTestJob } from './jobTestKit';
import { openEvents, type SseEvent, type SseStream } from './sseKit';
import { advanceSignal, finishSignal } from '../workflows/signaledJob';

const eventsUrl = (id: string, base = '/api/jobs') => `${jobUrl(id, base)}/events`;

/** A job that moves one progress step per `advance` and completes with `finish(value)`. */
async function startSignaledJob(accountId: string, total = 3) {
  const id = `test_signaled:${accountId}:${randomBytes(4).toString('hex')}`;
  const handle = await harness().client.workflow.start('signaledJobWorkflow', {
    workflowId: id,
    taskQueue: harness().taskQueue,
    args: [{ total }],
    typedSearchAttributes: jobSearchAttributes('test_signaled', accountId),
  });
  return { id, advance: () => handle.signal(advanceSignal), finish: (value: string) => handle.signal(finishSignal, value) };
}

/** Reads events until one satisfies `done`, returning all of them. */
async function until(stream: SseStream, done: (e: SseEvent) => boolean): Promise<SseEvent[]> {
  const seen: SseEvent[] = [];
  for (;;) {
    const event = await stream.next();
    assert.ok(event, `the stream ended before the awaited event; got ${JSON.stringify(seen)}`);
    seen.push(event);
    if (done(event)) return seen;
  }
}

const progressDone = (n: number) => (e: SseEvent) => e.event === 'progress' && e.data.done === n;

describe('job events: GET /api/jobs/{id}/events (Server-Sent Events)', function () {
  this.timeout(60_000);
  let owner: TestAccount;
  let stranger: TestAccount;

  before(async () => {
    [owner, stranger] = await Promise.all([newAccount('Events Co'), newAccount('Other Events Co')]);
  });

  it('streams the status, each progress change, then `completed` with the result, and ends', async () => {
    const job = await startSignaledJob(owner.accountId);
    const stream = await openEvents(eventsUrl(job.id), { token: owner.ownerToken });
    assert.equal(stream.status, 200, stream.text);
    assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(stream.headers.get('cache-control'), 'no-cache');
    assert.equal(stream.headers.get('x-accel-buffering'), 'no');
    assert.equal(stream.headers.get('access-control-allow-origin'), null);

    const first = await stream.next();
    assert.equal(first?.event, 'status');
    assert.equal(first.data.id, job.id);
    assert.equal(first.data.status, 'running');
    assert.equal(first.data.kind, 'test_signaled');
    assert.equal(stream.retry, 2000);

    await job.advance();
    const one = await until(stream, progressDone(1));
    assert.deepEqual(one.at(-1)!.data, { phase: 'working', done: 1, total: 3, warnings: [] });
    await job.advance();
    await until(stream, progressDone(2));
    await job.finish('hello');

    const rest = await stream.rest();
    const final = rest.at(-1)!;
    assert.equal(final.event, 'completed');
    assert.equal(final.data.status, 'completed');
    assert.deepEqual(final.data.result, { value: 'hello', done: 2 });
    assert.match(final.id, /-end$/);
    assert.ok(rest.slice(0, -1).every((e) => e.event === 'progress' || e.event === 'status'));
  });

  it('event ids only grow while the job runs', async () => {
    const job = await startSignaledJob(owner.accountId);
    const stream = await openEvents(eventsUrl(job.id), { token: owner.ownerToken });
    await stream.next();
    for (const n of [1, 2]) {
      await job.advance();
      await until(stream, progressDone(n));
    }
    await job.finish('x');
    const all = await stream.rest();
    const histories = all.map((e) => Number(e.id.split('-')[0]));
    assert.deepEqual(
      [...histories].sort((a, b) => a - b),
      histories,
    );
  });

  it('a reconnect with Last-Event-ID gets only later changes, never the state it had again', async () => {
    const job = await startSignaledJob(owner.accountId);
    const first = await openEvents(eventsUrl(job.id), { token: owner.ownerToken });
    await first.next();
    await job.advance();
    const had = (await until(first, progressDone(1))).at(-1)!;
    first.close();

    const again = await openEvents(eventsUrl(job.id), { token: owner.ownerToken, lastEventId: had.id });
    assert.equal(again.status, 200);
    await job.advance();
    const next = await again.next();
    assert.equal(next?.event, 'progress');
    assert.equal(next.data.done, 2);
    assert.notEqual(next.id, had.id);
    await job.finish('done');
    const rest = await again.rest();
    assert.equal(rest.at(-1)!.event, 'completed');
  });

  it('a reconnect after the job closed gets the final event at once; one with the final id answers 204', async () => {
    const job = await startSignaledJob(owner.accountId);
    const stream = await openEvents(eventsUrl(job.id), { token: owner.ownerToken });
    const had = (await stream.next())!;
    stream.close();
    await job.finish('late');
    await settled(owner.ownerToken, job.id);

    const after = await openEvents(eventsUrl(job.id), { token: owner.ownerToken, lastEventId: had.id });
    const events = await after.rest(5_000);
    assert.deepEqual(
      events.map((e) => e.event),
      ['completed'],
    );
    assert.equal(events[0].data.result.value, 'late');

    const done = await openEvents(eventsUrl(job.id), { token: owner.ownerToken, lastEventId: events[0].id });
    assert.equal(done.status, 204);
  });

  it('a fresh connection to a closed job gets its status and the final event, then the stream ends', async () => {
    const started = await startTestJob(owner.ownerToken, 'failing', { code: 'quota_exceeded', message: 'monthly quota reached' });
    await settled(owner.ownerToken, started.body.id);
    const stream = await openEvents(eventsUrl(started.body.id), { token: owner.ownerToken });
    const events = await stream.rest(5_000);
    assert.deepEqual(
      events.map((e) => e.event),
      ['status', 'failed'],
    );
    assert.deepEqual(events[1].data.error, { code: 'quota_exceeded', message: 'monthly quota reached' });
  });

  it('a cancel ends the stream with `canceled`', async () => {
    const job = await startSignaledJob(owner.accountId);
    const stream = await openEvents(eventsUrl(job.id), { token: owner.ownerToken });
    await stream.next();
    await call('POST', `${jobUrl(job.id)}/cancel`, { token: owner.ownerToken });
    const rest = await stream.rest();
    assert.equal(rest.at(-1)!.event, 'canceled');
    assert.equal(rest.at(-1)!.data.status, 'canceled');
  });

  it("another account's job and a missing job answer 404 job_not_found as JSON; no credential answers 401", async () => {
    const job = await startSignaledJob(owner.accountId);
    const foreign = await openEvents(eventsUrl(job.id), { token: stranger.ownerToken });
    assert.equal(foreign.status, 404);
    assert.equal(JSON.parse(foreign.text).code, 'job_not_found');
    const missing = await openEvents(eventsUrl(`test_signaled:${owner.accountId}:nope`), { token: owner.ownerToken });
    assert.equal(missing.status, 404);
    const anonymous = await openEvents(eventsUrl(job.id));
    assert.equal(anonymous.status, 401);
    assert.equal(JSON.parse(anonymous.text).code, 'missing_credentials');
    await job.finish('x');
  });

  it('the agent twin streams with a jobs:read key and refuses a key without it', async () => {
    const job = await startSignaledJob(owner.accountId);
    const reader = await newAgentKey(owner.accountId, ['jobs:read'], true);
    const stream = await openEvents(eventsUrl(job.id, '/api/agent/jobs'), { token: reader });
    assert.equal((await stream.next())?.event, 'status');
    stream.close();
    const other = await newAgentKey(owner.accountId, ['crm:read']);
    const refused = await openEvents(eventsUrl(job.id, '/api/agent/jobs'), { token: other });
    assert.equal(refused.status, 403);
    await job.finish('x');
  });

  it('stopping the API ends open streams at once instead of waiting out the drain', async () => {
    const job = await startSignaledJob(owner.accountId);
    const server = createApiServer(harness().deps);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const stream = await openEvents(eventsUrl(job.id), { token: owner.ownerToken, baseUrl });
    assert.equal((await stream.next())?.event, 'status');

    const started = Date.now();
    const { forced } = await closeServer(server, 10_000);
    assert.equal(forced, false);
    assert.ok(Date.now() - started < 3_000, `the drain took ${Date.now() - started} ms`);
    assert.equal(await stream.next(2_000), null);
    await job.finish('x');
  });
});

describe('job events: a client that leaves', function () {
  this.timeout(30_000);

  it('stops the polling of its stream when the client disconnects', async () => {
    const owner = await newAccount('Leaving Co');
    const job = await startSignaledJob(owner.accountId);
    const base = harness().deps;
    let looks = 0;
    const { client } = base.temporal;
    const workflow = Object.create(client.workflow, {
      getHandle: {
        value: (...args: Parameters<typeof client.workflow.getHandle>) => {
          looks++;
          return client.workflow.getHandle(...args);
        },
      },
    });
    const spied = new Proxy(client, { get: (target, key) => (key === 'workflow' ? workflow : Reflect.get(target, key)) });
    const deps = { ...base, config: { ...base.config, JOB_EVENTS_POLL_MS: 100 }, temporal: { ...base.temporal, client: spied } };
    const server = createApiServer(deps);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const stream = await openEvents(eventsUrl(job.id), { token: owner.ownerToken, baseUrl });
      await stream.next();
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.ok(looks > 3, `the stream looked at the job ${looks} times while open`);
      stream.close();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const atClose = looks;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      assert.equal(looks, atClose, 'the stream kept polling after its client left');
    } finally {
      await closeServer(server, 1_000);
      await job.finish('x');
    }
  });
});
