import { randomUUID } from 'node:crypto';
import type { Worker } from '@temporalio/worker';
import type { NativeConnection } from '@temporalio/worker';
import { createActivities } from '../../../src/app/activities';
import { createWorker } from '../../../src/temporal/worker';
import type { SimOrder } from '../../../src/sandbox/commerce';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { connectShop, registerApp, startCommerceWorld, type CommerceWorld } from '../connection/fixtures';
import {
  commerceOrderBackfillContract,
  type OrderBackfillInput,
  type OrderBackfillSummary,
} from '../../../workflows/commerceOrderBackfill.contract';
import {
  commerceShopBackfillContract,
  type ShopBackfillInput,
  type ShopBackfillResult,
} from '../../../workflows/commerceShopBackfill.contract';

export interface BackfillWorker {
  worker: Worker;
  stop(): Promise<void>;
}

/**
 * A worker of the product's activities whose platform client talks to the simulator, on its own task queue
 * (the harness worker's COMMERCE_SHOP_URL_TEMPLATE is the production default).
 */
export async function startBackfillWorker(world: CommerceWorld, taskQueue: string): Promise<BackfillWorker> {
  const { deps, bundle, temporalAddress, temporalSecurity } = harness();
  const config = { ...deps.config, COMMERCE_SHOP_URL_TEMPLATE: world.sim.shopUrlTemplate };
  const { worker, connection }: { worker: Worker; connection: NativeConnection } = await createWorker({
    address: temporalAddress,
    security: temporalSecurity,
    namespace: deps.temporal.namespace,
    taskQueue,
    bundle,
    activities: createActivities({ config, db: deps.db, logger: deps.logger }),
  });
  const running = worker.run();
  return {
    worker,
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

export interface ConnectedShop {
  account: TestAccount;
  accountId: string;
  connectionId: string;
  shopDomain: string;
}

const connected: string[] = [];

/** A new account with its app registered and one shop connected through the simulator (OAuth end to end). */
export async function newConnectedShop(world: CommerceWorld, account?: TestAccount): Promise<ConnectedShop> {
  const owner = account ?? (await newAccount('Backfill Co'));
  if (!account) await registerApp(world, owner);
  const { shopDomain, connection } = await connectShop(world, owner);
  connected.push(connection.id);
  return { account: owner, accountId: owner.accountId, connectionId: connection.id, shopDomain };
}

/**
 * Marks the shops connected so far as disconnected: sweeps visit every active connection of the database, and a
 * shop whose simulator is gone would only fail in the sweeps of the test files that run later.
 */
export async function retireConnectedShops(): Promise<void> {
  const ids = connected.splice(0);
  if (ids.length > 0) await harness().db('commerce_connections').whereIn('id', ids).update({ disconnected_at: new Date() });
}

/** Runs the sweep on the task queue and waits for its summary. */
export async function runSweep(taskQueue: string, input: OrderBackfillInput = {}, timeoutMs = 60_000): Promise<OrderBackfillSummary> {
  const { client } = harness();
  return client.withDeadline(Date.now() + timeoutMs, () =>
    client.workflow.execute(commerceOrderBackfillContract.workflowType, {
      taskQueue,
      workflowId: `test-order-backfill:${randomUUID()}`,
      args: [input],
    }),
  );
}

/** Runs one connection's backfill directly (its own workflow id), waiting for the end of its last run. */
export async function runShopBackfill(taskQueue: string, shop: ConnectedShop, options: Partial<ShopBackfillInput> = {}) {
  const { client } = harness();
  const handle = await client.workflow.start(commerceShopBackfillContract.workflowType, {
    taskQueue,
    workflowId: `test-shop-backfill:${shop.connectionId}:${randomUUID()}`,
    args: [{ accountId: shop.accountId, connectionId: shop.connectionId, shopDomain: shop.shopDomain, ...options }],
  });
  const result: ShopBackfillResult = await client.withDeadline(Date.now() + 60_000, () => handle.result());
  return { handle, result };
}

export const resultOf = (summary: OrderBackfillSummary, shop: ConnectedShop) =>
  summary.results.find((r) => r.connection_id === shop.connectionId);

export async function loggedCount(connectionId: string): Promise<number> {
  const [{ count }] = await harness().db('commerce_orders_log').where({ connection_id: connectionId }).count({ count: '*' });
  return Number(count);
}

/** The orders-listing requests the simulator saw for the shop, with their query parameters. */
export function orderListings(world: CommerceWorld, shopDomain: string): URLSearchParams[] {
  return world.sim
    .requests()
    .filter((r) => r.method === 'GET' && r.path === `/${shopDomain}/admin/api/2025-04/orders.json`)
    .map((r) => new URLSearchParams(r.query));
}

/** An ISO instant `ms` before now, at whole seconds (the platform's precision). */
export const ago = (ms: number) => new Date(Math.floor((Date.now() - ms) / 1000) * 1000).toISOString();

export const HOUR = 3600_000;

/** An order placed and last updated at `at`; `email: null` makes a guest order. */
export const orderAt = (at: string, extra: Partial<SimOrder> = {}): Partial<SimOrder> => ({ created_at: at, updated_at: at, ...extra });

export { startCommerceWorld, type CommerceWorld };
