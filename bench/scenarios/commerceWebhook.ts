import { randomBytes } from 'node:crypto';
import { FAIR_BASELINE_PATH, FAIR_BASELINE_TABLE } from '../baselines/commerceWebhook';
import { buildDeliveries, CONCURRENCY, drain, handedOver, PATH, seedShop, sender, type Drain, type Shop } from '../lib/commerceDeliveries';
import type { BenchEnv } from '../lib/env';
import { pool, type Samples } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { startServers } from '../lib/servers';
import { startBenchWorker } from '../lib/worker';

const ROUNDS = 3;
/** Deliveries per round and side, in both phases. */
const DELIVERIES_PER_ROUND = 2_000;
const WARMUP = 50;
const BASELINE_ROUND_MS = 3_000;

/**
 * The fair baseline's table: the dedup record's columns, defaults, checks, keys and indexes, and its foreign keys to
 * the connection and the account (LIKE does not copy foreign keys).
 */
async function createFairBaselineTable(env: BenchEnv): Promise<void> {
  await env.db.raw(`create table if not exists ${FAIR_BASELINE_TABLE} (like commerce_webhook_deliveries including all)`);
  await env.db.raw(
    `alter table ${FAIR_BASELINE_TABLE}
       drop constraint if exists ${FAIR_BASELINE_TABLE}_connection_fk,
       add constraint ${FAIR_BASELINE_TABLE}_connection_fk foreign key (connection_id) references commerce_connections (id) on delete cascade,
       drop constraint if exists ${FAIR_BASELINE_TABLE}_account_fk,
       add constraint ${FAIR_BASELINE_TABLE}_account_fk foreign key (account_id) references accounts (id) on delete cascade`,
  );
}

/** The fair baseline's rows of the shop: one per delivery it accepted, or it lost one. */
async function baselineRows(env: BenchEnv, shop: Shop): Promise<number> {
  const [row] = await env.db(FAIR_BASELINE_TABLE).where({ connection_id: shop.connectionId }).count<{ count: string }[]>('* as count');
  return Number(row.count);
}

/**
 * POST /api/webhooks/commerce with signed orders/create deliveries (each a distinct order and webhook id): shop
 * lookup, HMAC, durable dedup record (group commit) and the 200, with the API's relay handing the recorded deliveries
 * to the shop's workflow (signal-with-start) during the rounds, as startApi runs it — vs a bare Koa handler that reads
 * the raw body, checks the HMAC and makes one durable `INSERT … ON CONFLICT DO NOTHING` per delivery into a table of
 * the dedup record's shape (the fair baseline: the same distinct deliveries, alternating rounds of the same size, same
 * concurrency, same process; its `lost` counts accepted deliveries without a row).
 *
 * Two phases, one run, as site-webhook. (1) The figure with the goal (≥ 1.0): the product's worker is not running
 * during the rounds — in production it runs on the worker hosts, not beside the API; on this 2-core machine its
 * ingestion of the orders would take the cores the receiver is measured on — so the hand-off to Temporal happens but
 * no workflow task is polled. Before each baseline round the relay has handed over our previous round. Then the
 * worker starts and must process every accepted delivery through the shop's workflow: `lost` counts accepted
 * deliveries not processed (the order log rows are printed beside). The same phase also runs the handler with the
 * HMAC check alone (3 s rounds; context). (2) For context: the same rounds with the worker ingesting beside them on
 * the same machine, drained before each baseline round (so the baseline never shares the machine with it).
 */
export async function commerceWebhook(env: BenchEnv): Promise<ScenarioResult[]> {
  const shop = await seedShop(env);
  await createFairBaselineTable(env);
  const deliveries = await buildDeliveries(shop, WARMUP + 2 * ROUNDS * DELIVERIES_PER_ROUND);
  /** The distinct deliveries of round `r` (phase 2's rounds follow phase 1's), the same for both sides. */
  const roundSlice = (r: number) => deliveries.slice(WARMUP + r * DELIVERIES_PER_ROUND, WARMUP + (r + 1) * DELIVERIES_PER_ROUND);
  const taskQueue = `bench-commerce-${randomBytes(4).toString('hex')}`;
  const servers = await startServers(env, 'commerce-webhook', shop.accountId, {
    TEMPORAL_TASK_QUEUE: taskQueue,
    BENCH_CONNECTION_ID: shop.connectionId,
  });
  const ours = sender(servers.urls.ours, PATH);
  const bare = sender(servers.urls.baseline, '/');
  const fair = sender(servers.urls.baseline, FAIR_BASELINE_PATH);
  let worker: Awaited<ReturnType<typeof startBenchWorker>> | undefined;
  try {
    await bare.round(deliveries.slice(0, WARMUP), { maxOperations: WARMUP });
    await fair.round(deliveries.slice(0, WARMUP), { maxOperations: WARMUP });
    await ours.round(deliveries.slice(0, WARMUP), { maxOperations: WARMUP });

    // Phase 1: receiver + relay, the worker not running.
    const alone = { ours: [] as Samples[], fair: [] as Samples[], bare: [] as Samples[] };
    for (let r = 0; r < ROUNDS; r++) {
      await handedOver(env, shop);
      alone.bare.push(await bare.round(deliveries, { durationMs: BASELINE_ROUND_MS }));
      // The fair baseline gets the same distinct deliveries as ours (its own table, so no conflict with ours).
      const slice = roundSlice(r);
      alone.fair.push(await fair.round(slice, { maxOperations: slice.length }));
      alone.ours.push(await ours.round(slice, { maxOperations: slice.length }));
    }
    const acceptedAlone = ours.accepted;
    const fairAcceptedAlone = fair.accepted;
    const fairRowsAlone = await baselineRows(env, shop);
    worker = await startBenchWorker(env, taskQueue);
    const first = await drain(env, shop, acceptedAlone);

    // Phase 2: the same with the worker ingesting beside it (drained before each baseline round).
    const beside = { ours: [] as Samples[], fair: [] as Samples[] };
    const drains: Drain[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      if (r > 0) drains.push(await drain(env, shop, ours.accepted));
      const slice = roundSlice(ROUNDS + r);
      beside.fair.push(await fair.round(slice, { maxOperations: slice.length }));
      beside.ours.push(await ours.round(slice, { maxOperations: slice.length }));
    }
    const drained = await drain(env, shop, ours.accepted);
    drains.push(drained);
    const drainRate = drains.reduce((t, d) => t + d.drainedCount, 0) / (drains.reduce((t, d) => t + d.ms, 0) / 1000);
    const fairRows = await baselineRows(env, shop);
    const label = 'bare Koa, raw body + HMAC + 1 INSERT';
    const size = `${CONCURRENCY} connections, ${ROUNDS} alternating rounds of ${DELIVERIES_PER_ROUND.toLocaleString('en')} distinct deliveries each side`;
    const oursAlone = pool(alone.ours);
    const lostOf = (accepted: number, d: Drain) =>
      `lost=${accepted - d.processed - d.failed} (accepted ${accepted}, processed by the shop workflow ${d.processed}, failed ${d.failed}, order log rows ${d.orders})`;
    return [
      {
        name: `commerce-webhook phase 1, receiver + relay as the API runs them, the worker not running (${size})`,
        ours: oursAlone,
        baseline: pool(alone.fair),
        goalRatio: 1.0,
        baselineLabel: label,
        notes: [
          `${lostOf(acceptedAlone, first)}; baseline lost=${fairAcceptedAlone - fairRowsAlone} (accepted ${fairAcceptedAlone}, rows ${fairRowsAlone})`,
          `then the worker started: the shop workflow processed the backlog of ${first.drainedCount} deliveries in ${(first.ms / 1000).toFixed(1)} s (${(first.drainedCount / (first.ms / 1000)).toFixed(0)}/s including the worker's start)`,
        ],
      },
      {
        name: `commerce-webhook phase 1, the same vs an HMAC check alone (context) (${ROUNDS} alternating rounds, ${BASELINE_ROUND_MS / 1000} s to the baseline)`,
        ours: oursAlone,
        baseline: pool(alone.bare),
        baselineLabel: 'bare Koa, raw body + HMAC check only',
      },
      {
        name: `commerce-webhook phase 2, the same with the worker ingesting beside it on this machine (context) (${size})`,
        ours: pool(beside.ours),
        baseline: pool(beside.fair),
        baselineLabel: label,
        notes: [
          `${lostOf(ours.accepted, drained)}; baseline lost=${fair.accepted - fairRows} (accepted ${fair.accepted}, rows ${fairRows})`,
          `the shop workflow worked its backlog down at ${drainRate.toFixed(1)} deliveries/s (in order, in passes of 500-delivery transactions); the last one took ${(drained.ms / 1000).toFixed(1)} s`,
        ],
      },
    ];
  } finally {
    servers.stop();
    await Promise.all([ours.close(), bare.close(), fair.close()]);
    await worker?.stop();
  }
}
