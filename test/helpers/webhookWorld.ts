import { randomBytes } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../src/app/activities';
import type { Config } from '../../src/config';
import type { AppDeps } from '../../src/deps';
import { createMetrics } from '../../src/http/metrics';
import { createWorker } from '../../src/temporal/worker';
import { eventually } from '../jobs/jobTestKit';
import { harness } from './harness';
import { startPrivateApp, type PrivateApp } from './privateApp';

// The world of the webhook suites (email webhooks, account alerts): an app and a worker of every product activity.

/**
 * An app and a worker that may reach loopback receivers (FETCH_ALLOW_PRIVATE_HOSTS, as in the sandbox), with `config`
 * on top (short attempt timeouts), on their own task queue `<prefix>-<random>`; `deps` is the app's, for calling
 * services directly.
 */
export interface WebhookWorld {
  app: PrivateApp;
  deps: AppDeps;
  taskQueue: string;
  stop(): Promise<void>;
}

export async function startWebhookWorld(prefix: string, overrides: Partial<Config>): Promise<WebhookWorld> {
  const { deps: base, bundle, temporalAddress } = harness();
  const taskQueue = `${prefix}-${randomBytes(4).toString('hex')}`;
  const config = { ...base.config, FETCH_ALLOW_PRIVATE_HOSTS: true, ...overrides };
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

/** Waits for the workflow (started in the background) to exist and finish, and answers its result. */
export async function workflowResult<R>(workflowId: string, timeoutMs: number): Promise<R> {
  const { client } = harness();
  const handle = client.workflow.getHandle(workflowId);
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
    `the workflow ${workflowId}`,
  );
  return client.withDeadline(Date.now() + timeoutMs, () => handle.result());
}
