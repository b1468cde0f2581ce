import { randomBytes } from 'node:crypto';
import { createAccount } from '../../src/auth/service';
import { printClusterTable, type ClusterRow } from '../lib/clusterTable';
import { apiStarts, completedTrivial, rawStarts, type Completion, type StartLoad } from '../lib/clusterStarts';
import { clusterUnavailable, devServerTarget, startClusterTarget, type Target } from '../lib/clusterTarget';
import { webhookBatch, webhookRound, type WebhookBatch, type WebhookRound } from '../lib/clusterWebhooks';
import type { BenchEnv } from '../lib/env';
import { pool, type Samples } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { BENCH_HASH_KEY, startServers } from '../lib/servers';
import type { Summary } from '../lib/stats';
import { startBenchWorker, type BenchWorker } from '../lib/worker';

const STARTS: StartLoad = { count: 300, durationMs: 6_000, concurrency: 16, warmup: 20 };
/** Fresh shops per webhook round (one shop workflow each, so a second worker has workflows to take). */
const SHOPS = 4;
const DELIVERIES_PER_SHOP = 125;
const WARM_DELIVERIES_PER_SHOP = 10;
const WORKER_COUNTS = [1, 2] as const;

type Workers = (typeof WORKER_COUNTS)[number];

/** Starts (warm-up included) and their completion: first start → the last of them completed. */
interface StartCycle {
  starts: Samples;
  done: Completion;
  started: number;
  cycleMs: number;
}

interface Measured {
  raw: StartCycle;
  api: StartCycle;
  webhook: WebhookRound;
}

type TargetRun = Record<Workers, Measured>;

/** The webhook batches of one target: one to warm up and one measured per worker count, each on fresh shops. */
async function batchesFor(env: BenchEnv): Promise<{ warm: WebhookBatch[]; measured: Record<Workers, WebhookBatch> }> {
  const warm = [await webhookBatch(env, 2, WARM_DELIVERIES_PER_SHOP), await webhookBatch(env, 2, WARM_DELIVERIES_PER_SHOP)];
  return {
    warm,
    measured: { 1: await webhookBatch(env, SHOPS, DELIVERIES_PER_SHOP), 2: await webhookBatch(env, SHOPS, DELIVERIES_PER_SHOP) },
  };
}

/**
 * On one Temporal: an API server process (our app, the commerce relay, the bench job route) and one product worker
 * process, then a second worker process on the same task queue. With each worker count: raw starts, API starts, each
 * waited on until every started workflow completed, then a webhook round.
 */
async function measure(target: Target, token: string): Promise<TargetRun> {
  const taskQueue = `bench-cluster-${randomBytes(4).toString('hex')}`;
  const childEnv = { ...target.childEnv, TEMPORAL_TASK_QUEUE: taskQueue };
  const batches = await batchesFor(target.env);
  const servers = await startServers(target.env, 'route-floor', '', { ...childEnv, BENCH_JOB_ROUTE: '1' });
  const workers: BenchWorker[] = [];
  const client = target.env.client;
  let started = 0;
  /** The starts, then the wait until every workflow started so far completed (the next load never shares the worker). */
  const cycle = async (load: () => Promise<Samples>): Promise<StartCycle> => {
    const t0 = performance.now();
    const starts = await load();
    const count = STARTS.warmup + starts.latenciesMs.length;
    started += count;
    const done = await completedTrivial(client, taskQueue, started);
    return { starts, done, started: count, cycleMs: performance.now() - t0 };
  };
  const run = {} as TargetRun;
  try {
    for (const count of WORKER_COUNTS) {
      while (workers.length < count) workers.push(await startBenchWorker(target.env, taskQueue, { ...childEnv, BENCH_WORKFLOWS: '1' }));
      // Not measured: the fresh worker's first workflow tasks, the relay and the receiver's first deliveries.
      await webhookRound(target.env, servers.urls.ours, batches.warm[count - 1]);

      const raw = await cycle(() => rawStarts(client, taskQueue, STARTS));
      const api = await cycle(() => apiStarts(servers.urls.ours, token, STARTS));
      const webhook = await webhookRound(target.env, servers.urls.ours, batches.measured[count]);
      run[count] = { raw, api, webhook };
    }
    return run;
  } finally {
    servers.stop();
    for (const worker of workers) await worker.stop();
  }
}

/** Deliveries processed per second, first send → last processed; p50/p95/p99 received → processed. */
function webhookSummary(r: WebhookRound): Summary {
  return {
    count: r.accepted,
    perSecond: (r.processed / r.endToEndMs) * 1000,
    p50Ms: r.latency.p50Ms,
    p95Ms: r.latency.p95Ms,
    p99Ms: r.latency.p99Ms,
    errors: r.intake.errors + r.failed + (r.accepted - r.processed - r.failed),
  };
}

const workersText = (n: Workers) => `${n} worker${n === 1 ? '' : 's'}`;

function startNotes(label: string, m: Measured): string[] {
  const done = (what: string, c: StartCycle) =>
    `${what}: ${c.started} started (${c.starts.errors} start errors) and completed ${((c.started / c.cycleMs) * 1000).toFixed(1)}/s, ` +
    `first start → last completed; the last ${(c.done.ms / 1000).toFixed(1)} s after the last start` +
    (c.done.stalled ? ` (STALLED at ${c.done.completed} completed in all)` : '');
  return [done(`${label} raw`, m.raw), done(`${label} API`, m.api)];
}

function webhookNotes(label: string, r: WebhookRound): string {
  const lost = r.accepted - r.processed - r.failed;
  return (
    `${label}: accepted ${r.accepted} of ${r.accepted + r.intake.errors} sent (HTTP answers ${pool([r.intake]).perSecond.toFixed(0)}/s), ` +
    `processed ${r.processed}, failed ${r.failed}, lost ${lost}${r.stalled ? ' (STALLED)' : ''}, in ${(r.endToEndMs / 1000).toFixed(1)} s`
  );
}

/**
 * Job starts and webhook intake on a five-process Temporal cluster (v1.29.1 from test/cluster/launcher.ts: frontend
 * with TLS and client certificates, two history, matching, worker; PostgreSQL persistence on the bench's PostgreSQL
 * server) and on the bench's dev server, in one run, each with one product worker process and with two on the same
 * task queue. Raw starts: client.workflow.start of a trivial workflow (the floor). API starts: POST /api/bench/jobs
 * (session auth, the job helper, the job index record) starting the same workflow. Webhooks: signed orders/create
 * deliveries to fresh shops through POST /api/webhooks/commerce, counted until the shop workflows processed every one.
 * The dev server is measured first, then the cluster is started (so neither shares the cores with the other's load).
 */
export async function cluster(env: BenchEnv): Promise<ScenarioResult[]> {
  const unavailable = await clusterUnavailable();
  if (unavailable) {
    console.log(`\ncluster: skipped: ${unavailable}`);
    return [];
  }
  const { ownerToken } = await createAccount(env.db, BENCH_HASH_KEY, {
    name: 'Bench cluster',
    ownerEmail: `cluster-${randomBytes(4).toString('hex')}@example.com`,
    ownerName: 'Bench',
  });
  const dev = await measure(devServerTarget(env), ownerToken);
  const clusterTarget = await startClusterTarget(env);
  let onCluster: TargetRun;
  try {
    onCluster = await measure(clusterTarget, ownerToken);
  } finally {
    await clusterTarget.close();
  }

  const runs: Array<[string, TargetRun]> = [
    ['dev server', dev],
    ['cluster', onCluster],
  ];
  const rows: Array<ClusterRow & { notes: string[] }> = [];
  for (const n of WORKER_COUNTS) {
    for (const [label, run] of runs) {
      rows.push({
        figure: `API job starts, ${label}, ${workersText(n)}`,
        ours: pool([run[n].api.starts]),
        baselineLabel: `raw starts, ${label}`,
        baseline: pool([run[n].raw.starts]),
        notes: startNotes(label, run[n]),
      });
    }
  }
  for (const n of WORKER_COUNTS) {
    rows.push({
      figure: `raw starts, cluster, ${workersText(n)}`,
      ours: pool([onCluster[n].raw.starts]),
      baselineLabel: 'raw starts, dev server',
      baseline: pool([dev[n].raw.starts]),
      notes: [],
    });
    rows.push({
      figure: `API job starts, cluster, ${workersText(n)}`,
      ours: pool([onCluster[n].api.starts]),
      baselineLabel: 'API job starts, dev server',
      baseline: pool([dev[n].api.starts]),
      notes: [],
    });
    rows.push({
      figure: `webhooks processed, cluster, ${workersText(n)}`,
      ours: webhookSummary(onCluster[n].webhook),
      baselineLabel: 'webhooks processed, dev server',
      baseline: webhookSummary(dev[n].webhook),
      notes: [webhookNotes('cluster', onCluster[n].webhook), webhookNotes('dev server', dev[n].webhook)],
    });
  }
  for (const [label, run] of runs) {
    rows.push({
      figure: `webhooks processed, ${label}, 2 workers`,
      ours: webhookSummary(run[2].webhook),
      baselineLabel: `webhooks processed, ${label}, 1 worker`,
      baseline: webhookSummary(run[1].webhook),
      notes: [],
    });
  }

  const size =
    `up to ${STARTS.count} starts or ${STARTS.durationMs / 1000} s per side, ${STARTS.concurrency} in flight; ${SHOPS * DELIVERIES_PER_SHOP} webhook deliveries over ` +
    `${SHOPS} fresh shops per round, 16 in flight; cluster ready in ${(clusterTarget.startupMs / 1000).toFixed(1)} s`;
  printClusterTable(`cluster (Temporal cluster v1.29.1, 5 processes, TLS, PostgreSQL, vs the dev server; ${size})`, rows);
  return rows.map((r) => ({
    name: `cluster: ${r.figure} vs ${r.baselineLabel}`,
    ours: r.ours,
    baseline: r.baseline,
    baselineLabel: r.baselineLabel,
    notes: r.notes.length ? r.notes : undefined,
  }));
}
