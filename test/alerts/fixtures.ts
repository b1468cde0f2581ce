import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { AlertEventRelay } from '../../src/alerts/relay';
import { createActivities } from '../../src/app/activities';
import type { AppDeps } from '../../src/deps';
import { createMetrics } from '../../src/http/metrics';
import { createWorker } from '../../src/temporal/worker';
import type { AlertEventDeliveryResult } from '../../workflows/alertEventDelivery.contract';
import { harness } from '../helpers/harness';
import type { CallResult } from '../helpers/http';
import { startPrivateApp, type PrivateApp } from '../helpers/privateApp';
import { eventually } from '../jobs/jobTestKit';

/** One attempt's deadline in these tests (the product default is 10 s). */
export const TEST_TIMEOUT_MS = 400;

/**
 * An app, a worker and an alert relay that may reach loopback receivers (FETCH_ALLOW_PRIVATE_HOSTS, as in the
 * sandbox), with short attempt timeouts, on their own task queue; `deps` is the app's, for calling services directly.
 */
export interface AlertWorld {
  app: PrivateApp;
  deps: AppDeps;
  stop(): Promise<void>;
}

export async function startAlertWorld(): Promise<AlertWorld> {
  const { deps: base, bundle, temporalAddress } = harness();
  const taskQueue = `alerts-${randomBytes(4).toString('hex')}`;
  const config = { ...base.config, FETCH_ALLOW_PRIVATE_HOSTS: true, ALERT_WEBHOOK_TIMEOUT_MS: TEST_TIMEOUT_MS };
  const { worker, connection }: { worker: Worker; connection: NativeConnection } = await createWorker({
    address: temporalAddress,
    namespace: base.temporal.namespace,
    taskQueue,
    bundle,
    activities: createActivities({ config, db: base.db, logger: base.logger }),
  });
  const running = worker.run();
  const app = await startPrivateApp([], { config, taskQueue });
  const deps: AppDeps = { ...base, config, temporal: { ...base.temporal, taskQueue }, metrics: createMetrics(false) };
  // Events recorded by activities reach their workflow through the relay (the API runs it); a short pause here.
  const relay = new AlertEventRelay(deps, { minAgeMs: 500, idleMs: 200, retryMs: 500 }).start();
  return {
    app,
    deps,
    async stop() {
      await relay.stop();
      await app.close();
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

/** Creates an endpoint through the route and answers the 201 body. */
export async function createEndpoint(
  app: PrivateApp,
  token: string,
  body: Record<string, unknown>,
): Promise<{ id: string; secret: string; [k: string]: unknown }> {
  const res = await app.call('POST', '/api/webhook-endpoints', { token, body });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

export async function deliveriesOf(app: PrivateApp, token: string, endpointId: string): Promise<CallResult> {
  const res = await app.call('GET', `/api/webhook-endpoints/${endpointId}/deliveries`, { token });
  assert.equal(res.status, 200, res.text);
  return res;
}

/** Waits for the event's delivery workflow to exist and finish, and answers its result. */
export async function deliveryResult(eventId: string, timeoutMs = 20_000): Promise<AlertEventDeliveryResult> {
  const { client } = harness();
  const handle = client.workflow.getHandle(`alert-event:${eventId}`);
  await eventually(
    () =>
      handle.describe().then(
        () => true,
        (err) => {
          if (err instanceof WorkflowNotFoundError) return false;
          throw err;
        },
      ),
    Boolean,
    timeoutMs,
    `the workflow of event ${eventId}`,
  );
  return client.withDeadline(Date.now() + timeoutMs, () => handle.result());
}

/** The id of the one alert event of `type` the account has, once recorded. */
export async function eventOf(accountId: string, type: string, timeoutMs = 15_000): Promise<{ id: string; data: Record<string, unknown> }> {
  const rows = await eventually(
    () => harness().db('alert_events').where({ account_id: accountId, type }).select('id', 'data'),
    (found) => found.length > 0,
    timeoutMs,
    `a ${type} event of ${accountId}`,
  );
  assert.equal(rows.length, 1, `one ${type} event`);
  return rows[0];
}

export const waitFor = eventually;
