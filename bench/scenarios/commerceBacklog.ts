import { randomBytes } from 'node:crypto';
import { commerceShopWorkflowId } from '../../workflows/commerceShop.contract';
import { buildDeliveries, CONCURRENCY, drain, handedOver, PATH, seedShop, sender } from '../lib/commerceDeliveries';
import type { BenchEnv } from '../lib/env';
import { pool } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { startServers } from '../lib/servers';
import type { Summary } from '../lib/stats';
import { drainChainFacts } from '../lib/temporalActions';
import { startBenchWorker, type BenchWorker } from '../lib/worker';

/** Deliveries of the backlog (BENCH_BACKLOG_DELIVERIES overrides it for a quick run). */
const DEFAULT_DELIVERIES = 20_000;
/** Sent first, not timed (the receiver's JIT, pools and shop cache); they join the backlog the worker drains. */
const WARMUP = 50;
/** The hand-over wait and the drain give up after this long without progress. */
const STALL_MS = 60_000;
const ACTIVITY = 'drainCommerceDeliveries';

function deliveryCount(): number {
  const raw = process.env.BENCH_BACKLOG_DELIVERIES;
  if (raw === undefined || raw === '') return DEFAULT_DELIVERIES;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`BENCH_BACKLOG_DELIVERIES must be a positive integer, got ${raw}`);
  return n;
}

/** One figure per run, no per-delivery latency: the percentiles print as n/a. */
const rate = (count: number, ms: number): Summary => ({
  count,
  perSecond: (count / ms) * 1000,
  p50Ms: NaN,
  p95Ms: NaN,
  p99Ms: NaN,
  errors: 0,
});

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Can one shop's workflow keep up with what the receiver takes in? ONE shop, ONE run: 20,000 distinct signed
 * orders/create deliveries (about four orders per customer, one in ten a guest) are posted to
 * `POST /api/webhooks/commerce` (16 connections) while the product's worker is NOT running — the API's relay still
 * hands them over to the shop's workflow (signal-with-start), as in commerce-webhook phase 1 — and the bench waits
 * until every row is handed over (`dispatched_at`). Then the worker starts and the shop workflow drains the backlog
 * (each pass ONE activity taking the shop's oldest unprocessed rows in 500-row transactions) until every accepted
 * delivery has an outcome, or nothing moved for 60 s. Ours: the drain rate (deliveries given an outcome ÷ seconds
 * from the worker's readiness to the last one seen finished); baseline: the intake rate (deliveries accepted ÷
 * seconds of posting). Goal: drain ≥ 0.8 × intake.
 */
export async function commerceBacklog(env: BenchEnv): Promise<ScenarioResult> {
  const count = deliveryCount();
  const shop = await seedShop(env, 'Bench backlog');
  const deliveries = await buildDeliveries(shop, WARMUP + count);
  const taskQueue = `bench-backlog-${randomBytes(4).toString('hex')}`;
  // The baseline server is commerce-webhook's, unused here: only our API (receiver + relay) is posted to.
  const servers = await startServers(env, 'commerce-webhook', shop.accountId, {
    TEMPORAL_TASK_QUEUE: taskQueue,
    BENCH_CONNECTION_ID: shop.connectionId,
  });
  const ours = sender(servers.urls.ours, PATH);
  let worker: BenchWorker | undefined;
  try {
    await ours.round(deliveries.slice(0, WARMUP), { maxOperations: WARMUP });
    const measured = deliveries.slice(WARMUP);
    const intake = await ours.round(measured, { maxOperations: measured.length });
    const handOverStarted = performance.now();
    const notHandedOver = await handedOver(env, shop, STALL_MS);
    const handOverMs = performance.now() - handOverStarted;

    const bootStarted = performance.now();
    worker = await startBenchWorker(env, taskQueue);
    const bootMs = performance.now() - bootStarted;
    const drained = await drain(env, shop, ours.accepted, STALL_MS);
    const finished = drained.processed + drained.failed;
    const chain = await drainChainFacts(env.client, commerceShopWorkflowId(shop.connectionId), ACTIVITY);
    const lost = ours.accepted - drained.processed - drained.failed;
    const intakeSummary = pool([intake]);
    return {
      name: `commerce-backlog, one shop's backlog of ${count.toLocaleString('en')} orders/create deliveries: drained by the shop workflow vs taken in by the receiver (${CONCURRENCY} connections, the worker stopped during intake)`,
      ours: rate(finished, drained.untilLastMs),
      baseline: intakeSummary,
      baselineLabel: 'intake: receiver + relay, worker stopped',
      goalRatio: 0.8,
      notes: [
        `lost=${lost} (accepted ${ours.accepted} incl. ${WARMUP} warm-up, processed ${drained.processed}, failed ${drained.failed}; order log rows ${drained.orders})`,
        `intake: ${intake.latenciesMs.length} accepted, ${intake.errors} refused, in ${s(intake.elapsedMs)}; then every row handed over after ${s(handOverMs)}${notHandedOver ? ` — NOT: ${notHandedOver} rows still without dispatched_at after ${STALL_MS / 1000} s` : ''}`,
        `drain: the worker was ready ${s(bootMs)} after its spawn (bundle, connections; not in the rate); ${finished} deliveries finished ${s(drained.untilLastMs)} later${drained.stalled ? `, then it STALLED (nothing finished for ${STALL_MS / 1000} s)` : ''} (${((finished / (bootMs + drained.untilLastMs)) * 1000).toFixed(0)}/s counting the worker's start)`,
        `Temporal, ${commerceShopWorkflowId(shop.connectionId)}: ${chain.runs} run(s) in the chain, largest history ${Math.max(...chain.lengths)} events (${chain.lengths.join(', ')}); ${chain.signals} signals (${chain.handedOver} rows handed over, ${chain.againSignals} hand-overs again); ${chain.passes} ${ACTIVITY} passes handling ${chain.handled} deliveries, ${chain.retries} retries`,
      ],
    };
  } finally {
    servers.stop();
    await ours.close();
    await worker?.stop();
  }
}
