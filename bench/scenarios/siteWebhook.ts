import { createHmac, randomBytes } from 'node:crypto';
import { Pool } from 'undici';
import { BASELINE_TABLE } from '../baselines/siteWebhook';
import type { BenchEnv } from '../lib/env';
import { pool, sampleLoad, type Samples } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { startServers } from '../lib/servers';
import { itemChangedBody, seedSiteIntake } from '../lib/siteIntake';
import { startBenchWorker } from '../lib/worker';

const ROUNDS = 3;
const DELIVERIES_PER_ROUND = 2_000;
const WARMUP = 100;
const CONCURRENCY = 16;
/** The drain gives up when no event was fanned out for this long. */
const DRAIN_STALL_MS = 30_000;

interface Seeded {
  accountId: string;
  connectionId: string;
  siteId: string;
  secret: string;
  path: string;
}

/** An account with one OAuth connection (service-wide client) sharing one site, its receiver URL registered. */
async function seed(env: BenchEnv): Promise<Seeded> {
  const { siteIds, ...seeded } = await seedSiteIntake(env, 1);
  // The same durable insert as ours: the inbound-event table's columns, defaults, checks, unique key and indexes, and its
  // foreign key to the account (LIKE does not copy foreign keys).
  await env.db.raw(`create table if not exists ${BASELINE_TABLE} (like site_platform_inbound_events including all)`);
  await env.db.raw(
    `alter table ${BASELINE_TABLE} drop constraint if exists ${BASELINE_TABLE}_account_fk,
       add constraint ${BASELINE_TABLE}_account_fk foreign key (account_id) references accounts (id) on delete cascade`,
  );
  return { ...seeded, siteId: siteIds[0] };
}

/** Distinct collection_item_changed bodies (an item of a CMS collection, as the platform's reference shows it). */
function bodies(s: Seeded, count: number, prefix: string): Buffer[] {
  return Array.from({ length: count }, (_, i) => itemChangedBody(s.siteId, `${prefix}${i}`));
}

interface Sender {
  accepted: number;
  round(list: Buffer[]): Promise<Samples>;
  close(): Promise<void>;
}

/** Posts signed deliveries (signed at send time, as the platform does) with the same concurrency to either server. */
function sender(baseUrl: string, path: string, secret: string): Sender {
  const client = new Pool(baseUrl, { connections: CONCURRENCY });
  const s: Sender = {
    accepted: 0,
    round: (list) =>
      sampleLoad(
        async (i) => {
          const body = list[i];
          const timestamp = String(Date.now());
          const signature = createHmac('sha256', secret).update(`${timestamp}:`).update(body).digest('hex');
          const res = await client.request({
            method: 'POST',
            path,
            headers: { 'content-type': 'application/json', 'x-webflow-timestamp': timestamp, 'x-webflow-signature': signature },
            body,
          });
          const text = await res.body.text();
          if (res.statusCode !== 200 || JSON.parse(text).received !== true || JSON.parse(text).replay) {
            throw new Error(`status ${res.statusCode}: ${text}`);
          }
          s.accepted++;
        },
        { concurrency: CONCURRENCY, maxOperations: list.length },
      ),
    close: () => client.close(),
  };
  return s;
}

async function counts(env: BenchEnv, s: Seeded): Promise<{ recorded: number; fannedOut: number }> {
  const [row] = await env
    .db('site_platform_inbound_events')
    .where({ account_id: s.accountId, site_id: s.siteId })
    .select(env.db.raw('count(*)::int as recorded'), env.db.raw('count(fanned_out_at)::int as "fannedOut"'));
  return row;
}

/** The fair baseline's rows: one per delivery it accepted, or it lost one. */
async function baselineRows(env: BenchEnv, s: Seeded): Promise<number> {
  const [row] = await env.db(BASELINE_TABLE).where({ account_id: s.accountId }).count<{ count: string }[]>('* as count');
  return Number(row.count);
}

/** Waits until every recorded event is fanned out, or until none was for a while. */
async function drain(env: BenchEnv, s: Seeded): Promise<{ recorded: number; fannedOut: number; ms: number }> {
  const started = performance.now();
  let last = -1;
  let progressAt = started;
  for (;;) {
    const c = await counts(env, s);
    if (c.fannedOut !== last) progressAt = performance.now();
    last = c.fannedOut;
    if (c.fannedOut >= c.recorded || performance.now() - progressAt > DRAIN_STALL_MS) return { ...c, ms: performance.now() - started };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Phase {
  ours: Samples[];
  baseline: Samples[];
}

/** Alternating rounds of the same size: baseline, then ours (distinct deliveries each); `beforeBaseline` runs first each time. */
async function rounds(s: Seeded, ours: Sender, bare: Sender, tag: string, beforeBaseline: () => Promise<unknown>): Promise<Phase> {
  const phase: Phase = { ours: [], baseline: [] };
  for (let r = 0; r < ROUNDS; r++) {
    await beforeBaseline();
    phase.baseline.push(await bare.round(bodies(s, DELIVERIES_PER_ROUND, `${tag}b${r}_`)));
    phase.ours.push(await ours.round(bodies(s, DELIVERIES_PER_ROUND, `${tag}o${r}_`)));
  }
  return phase;
}

/**
 * POST /api/webhooks/site-platform/{connectionId}/{urlToken} with signed collection_item_changed deliveries (each a
 * distinct event): connection lookup, URL token, HMAC and skew, envelope, durable dedup record (group commit) and the
 * stamp, answered 200 — vs a bare Koa handler that reads the raw body, checks the HMAC and makes one durable
 * `INSERT … ON CONFLICT DO NOTHING` per delivery into a table of the same shape (indexes, unique key, account foreign
 * key). Same concurrency, same process, alternating rounds of the same size. Our API process runs as startApi runs it:
 * the site-event relay hands every recorded event to Temporal during the rounds.
 *
 * Two phases, one run. (1) The figure with the goal: the fan-out worker is not running during the rounds (in
 * production it runs on the worker hosts, not beside the API; on this small bench machine it would take the cores the
 * receiver is measured on); it is started afterwards and must fan out every recorded event. (2) For context: the same
 * rounds with the product's worker fanning out concurrently on the same machine (drained before each baseline round).
 * `lost` counts accepted deliveries without an event row, and rows never fanned out.
 */
export async function siteWebhook(env: BenchEnv): Promise<ScenarioResult[]> {
  const s = await seed(env);
  const taskQueue = `bench-site-${randomBytes(4).toString('hex')}`;
  const servers = await startServers(env, 'site-webhook', s.accountId, {
    TEMPORAL_TASK_QUEUE: taskQueue,
    SITE_PLATFORM_CLIENT_ID: 'bench-client',
    SITE_PLATFORM_CLIENT_SECRET: s.secret,
    BENCH_SITE_ID: s.siteId,
  });
  const ours = sender(servers.urls.ours, s.path, s.secret);
  const bare = sender(servers.urls.baseline, '/', s.secret);
  let worker: Awaited<ReturnType<typeof startBenchWorker>> | undefined;
  try {
    await bare.round(bodies(s, WARMUP, 'wb'));
    await ours.round(bodies(s, WARMUP, 'wo'));
    const alone = await rounds(s, ours, bare, 'p1', async () => undefined);
    const acceptedAlone = ours.accepted;
    const baselineAlone = bare.accepted;
    const baselineRowsAlone = await baselineRows(env, s);

    worker = await startBenchWorker(env, taskQueue);
    const backlogStarted = performance.now();
    const first = await drain(env, s);
    const backlogMs = performance.now() - backlogStarted;

    const together = await rounds(s, ours, bare, 'p2', () => drain(env, s));
    const drained = await drain(env, s);
    const baselineRowsAfter = await baselineRows(env, s);
    const label = 'bare Koa, raw body + HMAC + 1 INSERT';
    const size = `${CONCURRENCY} connections, ${ROUNDS} alternating rounds of ${DELIVERIES_PER_ROUND.toLocaleString('en')} distinct deliveries each side`;
    return [
      {
        name: `site-webhook, signed collection_item_changed deliveries, receiver + relay as the API runs them (${size})`,
        ours: pool(alone.ours),
        baseline: pool(alone.baseline),
        goalRatio: 1.0,
        baselineLabel: label,
        notes: [
          `lost=${acceptedAlone - first.recorded} (accepted ${acceptedAlone}, event rows ${first.recorded}); baseline lost=${baselineAlone - baselineRowsAlone} (accepted ${baselineAlone}, rows ${baselineRowsAlone})`,
          `then the fan-out worker started: every recorded event fanned out (${first.fannedOut}/${first.recorded}) in ${(backlogMs / 1000).toFixed(1)} s (${(first.fannedOut / (backlogMs / 1000)).toFixed(0)} events/s once the worker was ready)`,
        ],
      },
      {
        name: `site-webhook, the same with the fan-out worker running beside it on this machine (context) (${size})`,
        ours: pool(together.ours),
        baseline: pool(together.baseline),
        baselineLabel: label,
        notes: [
          `lost=${ours.accepted - drained.recorded} (accepted ${ours.accepted}, event rows ${drained.recorded}, fanned out ${drained.fannedOut}); baseline lost=${bare.accepted - baselineRowsAfter} (accepted ${bare.accepted}, rows ${baselineRowsAfter})`,
          `the fan-out workflow finished the last backlog ${(drained.ms / 1000).toFixed(1)} s after the last round`,
        ],
      },
    ];
  } finally {
    servers.stop();
    await Promise.all([ours.close(), bare.close()]);
    await worker?.stop();
  }
}
