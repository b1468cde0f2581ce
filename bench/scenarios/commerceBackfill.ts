import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { commerceShopBackfillContract } from '../../workflows/commerceShopBackfill.contract';
import type { WorkflowOf } from '../../workflows/defineWorkflow';
import { loadConfig, type Config } from '../../src/config';
import type { Knex } from '../../src/db/knex';
import { saveInstalledShop } from '../../src/commerce/connections/service';
import { tokenCipherOf } from '../../src/commerce/connections/tokens';
import { readOrder } from '../../src/commerce/ingestion/orderPayload';
import { createCommerceClient } from '../../src/clients/commerce';
import { startCommerceSimulator, type CommerceSimulator, type SimOrder } from '../../src/sandbox/commerce';
import { addBenchOrders, newCommerceAccount, type BenchCommerceAccount } from '../lib/commerce';
import type { BenchEnv } from '../lib/env';
import type { ScenarioResult } from '../lib/report';
import type { Summary } from '../lib/stats';
import { startBenchWorker } from '../lib/worker';

const ORDERS = 5_000;
const ROUNDS = 2;
/** Our backfill lists 250 orders a page and ingests a page in one transaction; the baseline batches the same way. */
const PAGE = 250;

interface Side {
  orders: number;
  ms: number;
}

const summary = (sides: Side[]): Summary => {
  const count = sides.reduce((t, s) => t + s.orders, 0);
  // One figure per run, no per-order latency: the percentiles print as n/a.
  return { count, perSecond: (count / sides.reduce((t, s) => t + s.ms, 0)) * 1000, p50Ms: NaN, p95Ms: NaN, p99Ms: NaN, errors: 0 };
};

/** Installs the app on the shop through the simulator's OAuth (authorize, then the code exchange) and stores the connection with its sealed token. */
async function connect(db: Knex, sim: CommerceSimulator, config: Config, app: BenchCommerceAccount, shopDomain: string): Promise<string> {
  const authorize = new URL(`${sim.baseUrl}/${shopDomain}/admin/oauth/authorize`);
  authorize.search = new URLSearchParams({
    client_id: app.clientId,
    scope: 'read_orders',
    redirect_uri: 'http://127.0.0.1/callback',
    state: 'bench',
  }).toString();
  const approval = await fetch(authorize, { redirect: 'manual' });
  await approval.arrayBuffer();
  const code = new URL(approval.headers.get('location')!).searchParams.get('code')!;
  const grant = await createCommerceClient(config).exchangeCode(shopDomain, {
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    code,
  });
  const connection = await saveInstalledShop(db, app.accountId, {
    shopDomain,
    shopId: shopDomain,
    shopName: 'Bench shop',
    adminTokenEnc: tokenCipherOf(config).encrypt(grant.accessToken),
    scope: grant.scope,
  });
  return connection.id;
}

/** Ours: the per-shop backfill workflow on the product's worker — pages listed from the simulator, each ingested through the shared path. */
async function backfillThroughTemporal(
  env: BenchEnv,
  taskQueue: string,
  app: BenchCommerceAccount,
  connectionId: string,
  shopDomain: string,
) {
  const started = performance.now();
  const result = await env.client.workflow.execute<WorkflowOf<typeof commerceShopBackfillContract>>(
    commerceShopBackfillContract.workflowType,
    {
      workflowId: `bench-backfill-${connectionId}`,
      taskQueue,
      args: [{ accountId: app.accountId, connectionId, shopDomain, pageSize: PAGE }],
    },
  );
  return { result, ms: performance.now() - started };
}

const UPSERT = `insert into commerce_orders_log as log (account_id, connection_id, order_id, order_number, total_amount_cents, currency,
    customer_email, raw_payload, order_created_at, order_updated_at, last_topic)
  values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, 'orders/updated')
  on conflict (connection_id, order_id) do update set
    order_number = excluded.order_number, total_amount_cents = excluded.total_amount_cents, currency = excluded.currency,
    customer_email = excluded.customer_email, raw_payload = excluded.raw_payload, order_created_at = excluded.order_created_at,
    order_updated_at = excluded.order_updated_at, last_topic = excluded.last_topic, updated_at = now()`;

/** Baseline: the same orders as raw upserts on one pg connection — one statement per row, one transaction per page of 250. */
async function rawUpserts(databaseUrl: string, accountId: string, connectionId: string, orders: SimOrder[]): Promise<Side> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    for (let at = 0; at < orders.length; at += PAGE) {
      await client.query('begin');
      for (const payload of orders.slice(at, at + PAGE)) {
        const reading = readOrder(payload);
        if (!reading.ok) throw new Error(reading.reason);
        const o = reading.order;
        await client.query(UPSERT, [
          accountId,
          connectionId,
          o.orderId,
          o.orderNumber,
          o.totalCents,
          o.currency,
          o.email,
          JSON.stringify(payload),
          o.createdAt,
          o.updatedAt,
        ]);
      }
      await client.query('commit');
    }
    return { orders: orders.length, ms: performance.now() - started };
  } finally {
    await client.end();
  }
}

const logRows = async (env: BenchEnv, connectionId: string) =>
  Number((await env.db('commerce_orders_log').where({ connection_id: connectionId }).count<{ count: string }[]>('* as count'))[0].count);

/**
 * The order backfill of a freshly connected shop holding 5,000 orders (about four per customer, one in ten a guest):
 * the per-shop backfill workflow lists them from the simulator 250 a page (status any, updated_at asc, Link cursors,
 * call limits) and ingests each through the shared path (order log, CRM contact and rollups, activity, triggers) —
 * vs raw SQL upserts of the same rows into the order log only. Each round uses a fresh shop and connection.
 */
export async function commerceBackfill(env: BenchEnv): Promise<ScenarioResult> {
  const sim = await startCommerceSimulator();
  const taskQueue = `bench-backfill-${randomBytes(4).toString('hex')}`;
  const commerceEnv = {
    COMMERCE_SHOP_URL_TEMPLATE: sim.shopUrlTemplate,
    COMMERCE_TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', TEMPORAL_TASK_QUEUE: taskQueue, ...commerceEnv });
  const worker = await startBenchWorker(env, taskQueue, commerceEnv);
  try {
    const app = await newCommerceAccount(env, 'Bench backfill');
    sim.addApp({ clientId: app.clientId, clientSecret: app.clientSecret });
    const baselineAccount = await newCommerceAccount(env, 'Bench backfill baseline');
    const ours: Side[] = [];
    const baseline: Side[] = [];
    const notes: string[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const shopDomain = `bench-backfill-${r}-${randomBytes(3).toString('hex')}.commerce.test`;
      sim.addShop({ domain: shopDomain });
      const orders = addBenchOrders(sim, shopDomain, ORDERS);

      const [rawConnection] = await env
        .db('commerce_connections')
        .insert({ account_id: baselineAccount.accountId, shop_domain: `raw-${shopDomain}`, shop_name: 'Raw', scope: 'read_orders' })
        .returning('id');
      baseline.push(await rawUpserts(env.databaseUrl, baselineAccount.accountId, rawConnection.id, orders));

      const connectionId = await connect(env.db, sim, config, app, shopDomain);
      const { result, ms } = await backfillThroughTemporal(env, taskQueue, app, connectionId, shopDomain);
      if (result.status !== 'done') throw new Error(`backfill ended ${result.status}: ${JSON.stringify(result.error)}`);
      ours.push({ orders: result.ingested, ms });
      notes.push(
        `round ${r + 1}: backfill ${result.status}, ${result.pages} pages in ${result.runs} run(s), fetched ${result.fetched}, ingested ${result.ingested}, unchanged ${result.unchanged}, invalid ${result.invalid}, bridge errors ${result.bridge_errors}; log rows ours ${await logRows(env, connectionId)}, baseline ${await logRows(env, rawConnection.id)} of ${ORDERS}`,
      );
    }
    return {
      name: `commerce-backfill, a fresh shop's ${ORDERS.toLocaleString('en')} orders (${ROUNDS} alternating rounds, pages of ${PAGE}, one page at a time)`,
      ours: summary(ours),
      baseline: summary(baseline),
      goalRatio: 0.3,
      baselineLabel: 'raw SQL upsert per row, 1 tx per page',
      notes,
    };
  } finally {
    await worker.stop();
    await sim.stop();
  }
}
