import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { callAt } from '../helpers/http';
import { eventually } from '../jobs/jobTestKit';
import { childEnv, RunningMain, tempDir } from '../runtime/child';
import { SPAN_KIND, startOtlpReceiver, type ReceivedSpan } from './otlpReceiver';

// The API and the worker run as `npm run cli -- api` / `-- worker` children with OTEL_EXPORTER_OTLP_ENDPOINT set,
// because instrumentation must be in place before http and pg load (src/main.ts); the spans come back to a receiver
// in this process. A research run is the job: its web search is a platform call (undici) from an activity.

/** A Brave-protocol search API that answers no results and keeps the headers of each call. */
async function startSearchStub(): Promise<{ url: string; apiKey: string; calls: IncomingHttpHeaders[]; stop(): Promise<void> }> {
  const calls: IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    calls.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ web: { results: [] } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/res/v1/web/search`,
    apiKey: `BSA${randomBytes(12).toString('hex')}`,
    calls,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The chain of span names from `span` up to the root of its trace, root first. */
function ancestry(spans: ReceivedSpan[], span: ReceivedSpan): ReceivedSpan[] {
  const byId = new Map(spans.filter((s) => s.traceId === span.traceId).map((s) => [s.spanId, s]));
  const chain = [span];
  for (let parent = byId.get(span.parentSpanId); parent; parent = byId.get(parent.parentSpanId)) chain.unshift(parent);
  return chain;
}

describe('tracing (OTEL_EXPORTER_OTLP_ENDPOINT set)', function () {
  this.timeout(90_000);
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let search: Awaited<ReturnType<typeof startSearchStub>>;
  let api: RunningMain;
  let worker: RunningMain;
  let apiUrl: string;
  let account: TestAccount;

  before(async () => {
    const h = harness();
    [receiver, search, account] = await Promise.all([startOtlpReceiver(), startSearchStub(), newAccount('Traced Co')]);
    const dir = await tempDir('wy-tracing-');
    const bundlePath = path.join(dir, 'workflows.js');
    await writeFile(bundlePath, h.bundle.code);
    const env = (serviceEnv: Record<string, string>) =>
      childEnv({
        DATABASE_URL: h.databaseUrl,
        TEMPORAL_ADDRESS: h.temporalAddress,
        TEMPORAL_NAMESPACE: h.deps.temporal.namespace,
        SECRET_HASH_KEY: h.deps.secretHashKey,
        DATA_DIR: dir,
        WORKFLOW_BUNDLE_PATH: bundlePath,
        SEARCH_API_URL: search.url,
        SEARCH_API_KEY: search.apiKey,
        MODEL_API_KEY: '',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_SERVICE_NAME: '',
        ...serviceEnv,
      });
    const shared = { TEMPORAL_TASK_QUEUE: `traced-${randomBytes(4).toString('hex')}` };
    api = new RunningMain(['api'], env({ ...shared, HOST: '127.0.0.1', PORT: '0' }));
    worker = new RunningMain(['worker'], env(shared));
    const [listening] = await Promise.all([
      api.waitFor(/API listening on (http:\/\/[^\s"]+)/, 60_000),
      worker.waitFor(/worker running/, 60_000),
    ]);
    apiUrl = listening[1];
  });

  after(async () => {
    await Promise.all([api?.kill(), worker?.kill()]);
    await Promise.all([receiver?.stop(), search?.stop()]);
  });

  it('one trace runs from the API request through the workflow and its activity to the platform call, with traceparent sent on', async () => {
    const keyword = `traced ${randomBytes(3).toString('hex')}`;
    const res = await callAt(apiUrl, 'POST', '/api/agent/marketing/content/research', {
      token: account.agentKey,
      body: { topic: 'Tracing a research run', keyword },
    });
    assert.ok(res.status === 200 || res.status === 201, res.text);

    const isSearchCall = (s: ReceivedSpan) =>
      s.kind === SPAN_KIND.client && String(s.attributes['url.full']).startsWith(new URL(search.url).origin);
    const call = (
      await eventually(
        async () => receiver.spans.filter(isSearchCall),
        (found) => found.length > 0 && ancestry(receiver.spans, found[0])[0].kind === SPAN_KIND.server,
        20_000,
        'the search call span and its ancestors',
      )
    )[0];

    const chain = ancestry(receiver.spans, call);
    assert.deepEqual(
      chain.map((s) => `${s.service} ${s.name}`).filter((line) => !/ (?:pg|pg-pool)\./.test(line)),
      [
        'workyard-api POST /api/agent/marketing/content/research',
        'workyard-api StartWorkflow:research',
        'workyard-worker RunWorkflow:research',
        'workyard-worker StartActivity:researchSearch',
        'workyard-worker RunActivity:researchSearch',
        'workyard-worker GET',
      ],
    );
    assert.equal(chain[0].attributes['http.target'], '/api/agent/marketing/content/research');
    assert.equal(chain[0].attributes['http.route'], '/api/agent/marketing/content/research');

    // The search API got the trace context of the call's span.
    const sent = search.calls.map((headers) => String(headers.traceparent ?? ''));
    assert.ok(sent.includes(`00-${call.traceId}-${call.spanId}-01`), `traceparent sent: ${JSON.stringify(sent)}`);
  });

  it('spans carry no credentials, query strings or request headers', async () => {
    await eventually(
      async () => receiver.spans.length,
      (n) => n > 0,
    );
    const text = JSON.stringify(receiver.spans);
    for (const secret of [account.agentKey, search.apiKey, harness().deps.secretHashKey]) assert.ok(!text.includes(secret));
    assert.ok(!/[?&]q=/.test(text), 'a query string was recorded');
    assert.ok(!/http\.request\.header|http\.response\.header/.test(text), 'a header was recorded');
  });
});
