import { randomBytes, randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { createAccount } from '../../src/auth/service';
import { createDeployment } from '../../src/projects/deployments/service';
import { createProject } from '../../src/projects/service';
import { startDeployedSite, type DeployedSite } from '../../src/sandbox/deployedSite';
import { jobSearchAttributes } from '../../src/temporal/jobs';
import {
  contentPublishContract,
  contentPublishWorkflowId,
  rescheduleUpdate,
  type ContentPublishInput,
} from '../../workflows/contentPublish.contract';
import type { BenchEnv } from '../lib/env';
import type { Samples } from '../lib/load';
import { pool } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { BENCH_HASH_KEY } from '../lib/servers';
import { startBenchWorker } from '../lib/worker';

const ITEMS = 1_000;
const ROUNDS = 2;
const START_CONCURRENCY = 16;
/** Every start of a round is made before its instant; the instant is this far after the round begins. */
const LEAD_MS = 20_000;
/** A round gives up when nothing new fired for this long. */
const STALL_MS = 60_000;
const RETRY = { initialIntervalMs: 1_000, maximumIntervalMs: 10_000, maximumAttempts: 5 };

interface Seeded {
  accountId: string;
  projectId: string;
  site: DeployedSite;
}

/** An account with a service-hosted project on the native CMS, deployed (production) at a loopback site that verifies revalidations. */
async function seed(env: BenchEnv): Promise<Seeded> {
  const tag = randomBytes(4).toString('hex');
  const { account } = await createAccount(env.db, BENCH_HASH_KEY, {
    name: 'Bench schedules',
    ownerEmail: `owner-${tag}@example.com`,
    ownerName: 'Bench',
  });
  const project = await createProject(env.db, account.id, {
    name: 'Bench site',
    kind: 'service_hosted',
    host: 'www.bench.test',
    content_source: 'native',
  });
  const site = await startDeployedSite();
  const config = { SECRET_HASH_KEY: BENCH_HASH_KEY, FETCH_ALLOW_PRIVATE_HOSTS: true, NODE_ENV: 'development' as const };
  const { secret } = await createDeployment({ db: env.db, config }, account.id, project.id, {
    environment: 'production',
    base_url: site.baseUrl,
  });
  site.secret = secret;
  return { accountId: account.id, projectId: project.id, site };
}

/** Runs `start` for 0…count-1 with a bounded number in flight; throws when any start failed. */
async function startAll(count: number, start: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: START_CONCURRENCY }, async () => {
      while (next < count) await start(next++);
    }),
  );
}

/** Polls `fired` (how many are done) until all are, or nothing moved for STALL_MS. */
async function settle(fired: () => Promise<number>, count: number): Promise<number> {
  let last = -1;
  let movedAt = Date.now();
  for (;;) {
    const n = await fired();
    if (n !== last) movedAt = Date.now();
    last = n;
    if (n >= count || Date.now() - movedAt > STALL_MS) return n;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** 1,000 bare workflows sleeping to one instant; lateness = each run's close time − the instant. */
async function bareRound(env: BenchEnv, taskQueue: string): Promise<Samples> {
  const round = randomUUID();
  const ids = Array.from({ length: ITEMS }, (_, i) => `bench-sleep:${round}:${i}`);
  const instant = Date.now() + LEAD_MS;
  await startAll(ITEMS, (i) => env.client.workflow.start('benchSleepUntil', { workflowId: ids[i], taskQueue, args: [instant] }));
  if (Date.now() >= instant) throw new Error('the bare starts took longer than the lead; raise LEAD_MS');
  await new Promise((resolve) => setTimeout(resolve, instant - Date.now()));
  const closed = new Map<string, number>();
  const fired = async () => {
    const open = ids.filter((id) => !closed.has(id));
    await startAll(open.length, async (i) => {
      const d = await env.client.workflow.getHandle(open[i]).describe();
      if (d.closeTime) closed.set(open[i], d.closeTime.getTime());
    });
    return closed.size;
  };
  await settle(fired, ITEMS);
  return { latenciesMs: [...closed.values()].map((t) => t - instant), elapsedMs: 1, errors: ITEMS - closed.size };
}

/**
 * 1,000 draft items armed for one instant the way an accepted schedule request arms them (row mirrored, then the
 * item's content-publish workflow started with the reschedule Update); lateness = published_at − the instant.
 */
async function publishRound(env: BenchEnv, s: Seeded, taskQueue: string): Promise<Samples> {
  const instant = new Date(Date.now() + LEAD_MS);
  const rows = await env
    .db('content_items')
    .insert(
      Array.from({ length: ITEMS }, (_, i) => ({
        account_id: s.accountId,
        title: `Bench post ${i}`,
        slug: `bench-post-${randomBytes(4).toString('hex')}`,
        cms_link: JSON.stringify({ project_id: s.projectId, collection_id: 'native' }),
        deploy_target: 'production',
        scheduled_publish_at: instant,
        schedule_executes: true,
      })),
    )
    .returning('id');
  const ids: string[] = rows.map((r: { id: string }) => r.id);
  const at = instant.toISOString();
  await startAll(ITEMS, (i) => {
    const input: ContentPublishInput = {
      accountId: s.accountId,
      contentId: ids[i],
      projectId: s.projectId,
      at,
      deployTarget: 'production',
      retry: RETRY,
    };
    const start = new WithStartWorkflowOperation(contentPublishContract.workflowType, {
      workflowId: contentPublishWorkflowId(s.accountId, ids[i]),
      taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      typedSearchAttributes: jobSearchAttributes(contentPublishContract.jobKind, s.accountId, {
        ContentId: ids[i],
        ProjectId: s.projectId,
      }),
    });
    return env.client.workflow.executeUpdateWithStart(rescheduleUpdate, {
      args: [{ at, deployTarget: 'production', projectId: s.projectId }],
      startWorkflowOperation: start,
    });
  });
  if (Date.now() >= instant.getTime()) throw new Error('the schedule requests took longer than the lead; raise LEAD_MS');
  const published = () => env.db('content_items').whereIn('id', ids).where({ status: 'published' });
  await settle(async () => Number((await published().count<{ count: string }[]>('* as count'))[0].count), ITEMS);
  const stamps: Array<{ published_at: Date }> = await published().select('published_at');
  return { latenciesMs: stamps.map((r) => r.published_at.getTime() - instant.getTime()), elapsedMs: 1, errors: ITEMS - stamps.length };
}

/**
 * Lateness of scheduled publishing: 1,000 items scheduled for the same instant on a service-hosted project with the
 * native CMS (publish by status + revalidation of its production deployment, a loopback site; no site platform, so no
 * platform rate limit: the figure measures our workflow + activity path), from the instant to each item's `published`
 * stamp — vs 1,000 bare workflows sleeping to the same instant, from the instant to each run's close. Same worker
 * process (the product's, with the bench-only sleeper in its bundle), fresh in-memory dev server, alternating rounds.
 */
export async function scheduleFire(env: BenchEnv): Promise<ScenarioResult> {
  const s = await seed(env);
  const taskQueue = `bench-schedule-${randomBytes(4).toString('hex')}`;
  const worker = await startBenchWorker(env, taskQueue, {
    BENCH_WORKFLOWS: '1',
    SECRET_HASH_KEY: BENCH_HASH_KEY,
    FETCH_ALLOW_PRIVATE_HOSTS: 'true',
  });
  const ours: Samples[] = [];
  const baseline: Samples[] = [];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      baseline.push(await bareRound(env, taskQueue));
      ours.push(await publishRound(env, s, taskQueue));
    }
  } finally {
    await worker.stop();
    await s.site.stop();
  }
  const posts = s.site.revalidations.length;
  const tagged = new Set(s.site.revalidations.flatMap((r) => r.tags).filter((t) => t.startsWith('content:'))).size;
  return {
    name: `schedule-fire (${ITEMS.toLocaleString('en')} items due at one instant, ${ROUNDS} alternating rounds; lateness past the instant)`,
    ours: pool(ours),
    baseline: pool(baseline),
    baselineLabel: `${ITEMS.toLocaleString('en')} bare workflows sleeping to the instant`,
    compare: 'p99',
    goalRatio: 1.5,
    notes: [
      'ours: content-publish workflows on a service-hosted project with the native CMS (publish by status, then revalidate its',
      '  production deployment, a loopback site): no site platform and no platform rate limit, so this measures our workflow + activity path',
      `the deployed site received every item's tag: ${tagged} of ${ITEMS * ROUNDS} items, coalesced into ${posts} signed posts (rejected ${s.site.rejected})`,
    ],
  };
}
