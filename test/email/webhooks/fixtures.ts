import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../../src/app/activities';
import type { EmailScope } from '../../../src/auth/types';
import type { AppDeps } from '../../../src/deps';
import { createEmailKey } from '../../../src/email/keys/service';
import { createMetrics } from '../../../src/http/metrics';
import { createWorker } from '../../../src/temporal/worker';
import type { EmailEventDeliveryResult } from '../../../workflows/emailEventDelivery.contract';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { call, type CallResult } from '../../helpers/http';
import { eventually } from '../../jobs/jobTestKit';

/** One attempt's deadline in these tests (the product default is 10 s). */
export const TEST_TIMEOUT_MS = 400;

/**
 * An app and a worker that may reach loopback receivers (FETCH_ALLOW_PRIVATE_HOSTS, as in the sandbox), with short
 * attempt timeouts, on their own task queue; `deps` is the app's, for calling the service directly.
 */
export interface WebhookWorld {
  app: PrivateApp;
  deps: AppDeps;
  taskQueue: string;
  stop(): Promise<void>;
}

export async function startWebhookWorld(): Promise<WebhookWorld> {
  const { deps: base, bundle, temporalAddress } = harness();
  const taskQueue = `email-webhooks-${randomBytes(4).toString('hex')}`;
  const config = { ...base.config, FETCH_ALLOW_PRIVATE_HOSTS: true, EMAIL_WEBHOOK_TIMEOUT_MS: TEST_TIMEOUT_MS };
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
  return {
    app,
    deps,
    taskQueue,
    async stop() {
      await app.close();
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

export interface KeyedAccount {
  accountId: string;
  key: string;
}

export async function emailKey(
  accountId: string,
  scopes: EmailScope[] = ['email:webhooks'],
  environment: 'test' | 'live' = 'test',
): Promise<string> {
  const { token } = await createEmailKey(harness().deps, accountId, { name: 'webhooks test', environment, scopes });
  return token;
}

export async function keyedAccount(): Promise<KeyedAccount> {
  const { accountId } = await newAccount('Webhooks Co');
  return { accountId, key: await emailKey(accountId) };
}

/** Creates an endpoint through the route (on `app`, the harness app by default) and answers the 201 body. */
export async function createEndpoint(
  key: string,
  body: Record<string, unknown>,
  app?: Pick<PrivateApp, 'call'>,
): Promise<{ id: string; secret: string; [k: string]: unknown }> {
  const res = await (app
    ? app.call('POST', '/v1/email/webhooks', { token: key, body })
    : call('POST', '/v1/email/webhooks', { token: key, body }));
  assert.equal(res.status, 201, res.text);
  return res.body;
}

export async function deliveriesOf(app: Pick<PrivateApp, 'call'>, key: string, endpointId: string): Promise<CallResult> {
  const res = await app.call('GET', `/v1/email/webhooks/${endpointId}/deliveries`, { token: key });
  assert.equal(res.status, 200, res.text);
  return res;
}

/** Waits for the event's delivery workflow (started in the background by the emit) to finish and answers its result. */
export async function deliveryResult(eventId: string, timeoutMs = 20_000): Promise<EmailEventDeliveryResult> {
  const { client } = harness();
  const handle = client.workflow.getHandle(`email-event:${eventId}`);
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

export const waitFor = eventually;
