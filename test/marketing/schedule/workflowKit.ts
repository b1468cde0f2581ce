import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { WithStartWorkflowOperation, type WorkflowHandle } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../../src/app/activities';
import type { Config } from '../../../src/config';
import { saveBinding } from '../../../src/sitePlatform/connections/store';
import { jobSearchAttributes } from '../../../src/temporal/jobs';
import { createWorker } from '../../../src/temporal/worker';
import {
  contentPublishContract,
  contentPublishWorkflowId,
  rescheduleUpdate,
  type ContentPublishInput,
  type ContentPublishResult,
  type PublishDeployTarget,
  type PublishRetry,
  type ScheduleView,
} from '../../../workflows/contentPublish.contract';
import { harness } from '../../helpers/harness';
import { blogTenant } from './blogTenant';
import { newProjectId } from '../../helpers/projects';
import { startSiteWorld, type SiteWorld } from '../../sitePlatform/connections/fixtures';
import type { Tenant } from '../../sitePlatform/operations/fixtures';

export { eventually } from '../../jobs/jobTestKit';

/** Short retries for tests: three attempts 200 ms apart. */
export const FAST_RETRY: PublishRetry = { initialIntervalMs: 200, maximumIntervalMs: 200, maximumAttempts: 3 };

/** A worker of the product's activities with the world's config, on its own task queue (the harness worker has the harness config). */
export interface PublishWorker {
  taskQueue: string;
  worker: Worker;
  stop(): Promise<void>;
}

export async function startPublishWorker(
  config: Config,
  taskQueue = `content-publish-${randomBytes(4).toString('hex')}`,
): Promise<PublishWorker> {
  const h = harness();
  const { worker, connection }: { worker: Worker; connection: NativeConnection } = await createWorker({
    address: h.temporalAddress,
    security: h.temporalSecurity,
    namespace: h.deps.temporal.namespace,
    taskQueue,
    bundle: h.bundle,
    activities: createActivities({ config, db: h.db, logger: h.deps.logger }),
  });
  const running = worker.run();
  let stopped = false;
  return {
    taskQueue,
    worker,
    async stop() {
      if (stopped) return;
      stopped = true;
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

/** One simulator world, a tenant whose project publishes to a platform CMS collection, and a publish worker. */
export interface PublishWorld {
  world: SiteWorld;
  t: Tenant;
  config: Config;
  collectionId: string;
  publisher: PublishWorker;
  close(): Promise<void>;
}

export async function startPublishWorld(): Promise<PublishWorld> {
  const world = await startSiteWorld({ FETCH_ALLOW_PRIVATE_HOSTS: true });
  const { t, collectionId } = await blogTenant(world);
  const config = { ...harness().deps.config, ...world.config } as Config;
  const publisher = await startPublishWorker(config);
  return {
    world,
    t,
    config,
    collectionId,
    publisher,
    async close() {
      await publisher.stop();
      await world.close();
    },
  };
}

/** A service-hosted project of the tenant on the native CMS, bound to the tenant's site so items can link to it. */
export async function nativeProject(pw: PublishWorld): Promise<string> {
  const projectId = await newProjectId(pw.t.account.accountId, { kind: 'service_hosted', host: 'www.example.test' });
  await saveBinding(harness().db, pw.t.account.accountId, projectId, {
    override_mode: 'inherit',
    connection_id: null,
    site_id: pw.t.siteId,
  });
  return projectId;
}

/** A draft item linked to the project's collection (created through the dashboard route). */
export async function newLinkedItem(pw: PublishWorld, projectId = pw.t.projectId, extra: Record<string, unknown> = {}): Promise<string> {
  const slug = `post-${randomBytes(4).toString('hex')}`;
  const res = await pw.world.app.call('POST', '/api/marketing/content', {
    token: pw.t.account.ownerToken,
    body: {
      title: `Heat pumps ${slug}`,
      slug,
      body: '<h2>Why</h2><p>Because.</p>',
      excerpt: 'A short guide.',
      cms_link: { project_id: projectId, collection_id: pw.collectionId },
      ...extra,
    },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id as string;
}

export interface Armed {
  workflowId: string;
  view: ScheduleView;
  handle: WorkflowHandle<(input: ContentPublishInput) => Promise<ContentPublishResult>>;
}

export interface ArmOptions {
  projectId?: string;
  deployTarget?: PublishDeployTarget;
  retry?: PublishRetry;
  maxReschedulesPerRun?: number;
  taskQueue?: string;
  /** Leave the row as it is (the row's own mirror is what a test looks at). */
  rowUntouched?: boolean;
}

/**
 * What an accepted schedule request does (the route side's sync): the row mirrors the date as armed, and the item's
 * entity workflow gets the `reschedule` Update with start (conflict policy USE_EXISTING, reuse ALLOW_DUPLICATE).
 */
export async function arm(pw: PublishWorld, contentId: string, at: Date, options: ArmOptions = {}): Promise<Armed> {
  const { db, client } = harness();
  const accountId = pw.t.account.accountId;
  const projectId = options.projectId ?? pw.t.projectId;
  const deployTarget = options.deployTarget ?? 'production';
  if (!options.rowUntouched) {
    await db('content_items').where({ account_id: accountId, id: contentId }).update({
      scheduled_publish_at: at,
      schedule_executes: true,
      deploy_target: deployTarget,
    });
  }
  const workflowId = contentPublishWorkflowId(accountId, contentId);
  const input: ContentPublishInput = {
    accountId,
    contentId,
    projectId,
    at: at.toISOString(),
    deployTarget,
    retry: options.retry ?? FAST_RETRY,
    maxReschedulesPerRun: options.maxReschedulesPerRun,
  };
  const start = new WithStartWorkflowOperation(contentPublishContract.workflowType, {
    workflowId,
    taskQueue: options.taskQueue ?? pw.publisher.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: jobSearchAttributes(contentPublishContract.jobKind, accountId, { ContentId: contentId, ProjectId: projectId }),
  });
  const view = await client.workflow.executeUpdateWithStart(rescheduleUpdate, {
    args: [{ at: at.toISOString(), deployTarget, projectId }],
    startWorkflowOperation: start,
  });
  return { workflowId, view, handle: client.workflow.getHandle(workflowId) };
}

/** The run's result, bounded (the client never times out a result wait by itself). */
export function resultOf(armed: Armed, timeoutMs = 20_000): Promise<ContentPublishResult> {
  return harness().client.withDeadline(Date.now() + timeoutMs, () => armed.handle.result());
}

export const inSeconds = (s: number) => new Date(Date.now() + s * 1000);

export const itemRow = (id: string) => harness().db('content_items').where({ id }).first();

/** The simulator's publish calls for one collection. */
export const publishCalls = (pw: PublishWorld) =>
  pw.world.sim.requests().filter((r) => r.method === 'POST' && r.path.endsWith(`/collections/${pw.collectionId}/items/publish`));
