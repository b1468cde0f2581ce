import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Client, Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import type { Context } from 'koa';
import { errorRenderer } from '../../src/http/errors';
import { createLogger } from '../../src/logger';
import { withTemporal } from '../../src/temporal/rpc';
import { SEARCH_ATTRIBUTE_KEYS } from '../../src/temporal/searchAttributes';
import { defineSchedule } from '../../src/temporal/schedules';
import { syncSchedules } from '../../src/temporal/scheduleSync';
import { harness } from '../helpers/harness';
import { eventually } from '../jobs/jobTestKit';
import { childEnv, runMain } from '../runtime/child';
import { quickJobContract } from '../workflows/quickJob.contract';

// Each test registers a namespace of its own on the harness's dev server, so the harness's namespace keeps its attributes.
const newNamespace = () => `wy-test-${randomBytes(4).toString('hex')}`;
const KEYWORD = 2;
const KEYWORD_LIST = 7;

function clientOf(namespace: string): Client {
  return new Client({ connection: harness().client.connection, namespace });
}

/** A namespace without any of the project's search attributes, plus `attributes`, once the frontend knows it. */
async function bareNamespace(attributes: Record<string, number> = {}): Promise<string> {
  const namespace = newNamespace();
  const { workflowService, operatorService } = harness().client.connection;
  await workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
  await eventually(
    () =>
      workflowService.describeNamespace({ namespace }).then(
        () => true,
        () => false,
      ),
    (ok) => ok,
    30_000,
    `namespace ${namespace}`,
  );
  if (Object.keys(attributes).length) await operatorService.addSearchAttributes({ namespace, searchAttributes: attributes });
  return namespace;
}

async function customAttributes(namespace: string): Promise<Record<string, number>> {
  const { customAttributes } = await harness().client.connection.operatorService.listSearchAttributes({ namespace });
  return { ...customAttributes };
}

const envFor = (namespace: string) => childEnv({ TEMPORAL_ADDRESS: harness().temporalAddress, TEMPORAL_NAMESPACE: namespace });

describe('Temporal namespace setup and start-up checks', () => {
  it('temporal setup creates a missing namespace and every search attribute, and a second run changes nothing', async () => {
    const namespace = newNamespace();
    const first = await runMain(['temporal', 'setup'], envFor(namespace));
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, new RegExp(`^namespace ${namespace}: created \\(retention 7 days\\)$`, 'm'));
    for (const key of SEARCH_ATTRIBUTE_KEYS)
      assert.match(first.stdout, new RegExp(`^search attribute ${key.name} \\(\\w+\\): created$`, 'm'));

    const attributes = await customAttributes(namespace);
    for (const key of SEARCH_ATTRIBUTE_KEYS)
      assert.equal(attributes[key.name], key.type === 'KEYWORD_LIST' ? KEYWORD_LIST : KEYWORD, key.name);
    const { namespaceInfo, config } = await harness().client.connection.workflowService.describeNamespace({ namespace });
    assert.equal(namespaceInfo?.name, namespace);
    assert.equal(Number(config?.workflowExecutionRetentionTtl?.seconds), 7 * 86_400);

    const second = await runMain(['temporal', 'setup'], envFor(namespace));
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stdout, /created/);
    assert.match(second.stdout, new RegExp(`^namespace ${namespace}: already present$`, 'm'));
    for (const key of SEARCH_ATTRIBUTE_KEYS)
      assert.match(second.stdout, new RegExp(`^search attribute ${key.name} \\(\\w+\\): already present$`, 'm'));
    assert.deepEqual(await customAttributes(namespace), attributes);
  });

  it('start-up checks name each missing search attribute and the setup command', async () => {
    // AccountId is there; Tags has the wrong type; the other four are missing.
    const namespace = await bareNamespace({ AccountId: KEYWORD, Tags: KEYWORD });
    const result = await runMain(['schedules', 'sync'], envFor(namespace));
    assert.equal(result.code, 1, result.stdout + result.stderr);
    for (const name of ['JobKind', 'ContentId', 'ConnectionId', 'ProjectId']) {
      assert.match(result.stderr, new RegExp(`search attribute ${name} \\(Keyword\\) is missing`));
    }
    assert.match(result.stderr, /search attribute Tags is Keyword, not KeywordList/);
    assert.doesNotMatch(result.stderr, /AccountId/);
    assert.match(result.stderr, /npm run cli -- temporal setup/);
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'a message, not a stack trace');

    const missingNamespace = newNamespace();
    const worker = await runMain(['worker'], { ...envFor(missingNamespace), DATABASE_URL: harness().databaseUrl });
    assert.equal(worker.code, 1, worker.stdout + worker.stderr);
    assert.match(
      worker.stdout + worker.stderr,
      new RegExp(`the namespace "${missingNamespace}" does not exist.*npm run cli -- temporal setup`),
    );
  });

  it('temporal setup stops naming a search attribute that exists with another type, and adds nothing', async () => {
    const namespace = await bareNamespace({ Tags: KEYWORD });
    const result = await runMain(['temporal', 'setup'], envFor(namespace));
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stderr, /search attribute Tags is Keyword, not KeywordList/);
    assert.deepEqual(await customAttributes(namespace), { Tags: KEYWORD });
  });

  it('a schedule error shows its gRPC cause', async () => {
    const namespace = await bareNamespace();
    const entry = defineSchedule(quickJobContract, {
      name: `test-cause-${randomBytes(3).toString('hex')}`,
      cron: '0 4 1 1 *',
      args: [{ value: 'cause' }],
      overlap: 'SKIP',
      description: 'a schedule on a namespace without the search attributes',
    });
    await assert.rejects(syncSchedules(clientOf(namespace), [entry], harness().taskQueue), (err: Error) => {
      // The server names the first unmapped attribute it meets, in no fixed order.
      assert.match(
        err.message,
        new RegExp(
          `schedule ${entry.name}: Failed to create schedule \\(cause: INVALID_ARGUMENT: .*search attribute (AccountId|JobKind)\\)`,
        ),
      );
      return true;
    });
  });

  it('a temporal_unavailable answer logs its gRPC cause and keeps it out of the body', async () => {
    // Nothing listens on port 1: the SDK retries UNAVAILABLE until the deadline, which ends the call.
    const connection = Connection.lazy({ address: '127.0.0.1:1' });
    const client = new Client({ connection });
    const lines: string[] = [];
    const logger = createLogger(
      'info',
      new Writable({
        write: (chunk, _enc, done) => {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const ctx = { state: { requestId: 'req-1' }, method: 'GET', status: 0, body: undefined, set: () => undefined } as unknown as Context;
    try {
      const err = await withTemporal(client, () => client.workflowService.getSystemInfo({}), 1_000).then(
        () => assert.fail('the call succeeded'),
        (e: unknown) => e,
      );
      errorRenderer(logger)(ctx, err);
    } finally {
      await connection.close();
    }
    assert.equal(ctx.status, 503);
    assert.equal((ctx.body as { code: string }).code, 'temporal_unavailable');
    assert.doesNotMatch(JSON.stringify(ctx.body), /DEADLINE_EXCEEDED|UNAVAILABLE|cause/);
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; cause?: string; requestId?: string });
    const entry = logged.find((l) => l.msg === 'temporal_unavailable');
    assert.ok(entry, JSON.stringify(logged));
    assert.equal(entry.requestId, 'req-1');
    assert.match(entry.cause ?? '', /^(DEADLINE_EXCEEDED|UNAVAILABLE): /);
  });
});
