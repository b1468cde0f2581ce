/**
 * A loopback simulator of the commerce platform (Admin API 2025-04) for tests and the sandbox mode: OAuth,
 * shop, orders, webhooks, catalog, call limits, signed webhook deliveries with retries, and faults on demand.
 */
import { catalogControl, seedCatalog, type CatalogControl } from './catalog';
import {
  createDeliverer,
  DEFAULT_DELIVERY_TIMEOUT_MS,
  DEFAULT_RETRY_SCHEDULE,
  type DeliveryOptions,
  type DeliveryResult,
} from './deliveries';
import { FaultList, type FaultSpec } from './faults';
import { addOrders, updateOrder } from './orders';
import { LeakyBuckets } from './rateLimit';
import { startServer } from './server';
import { createState, isoSeconds, shopOrThrow, type RequestLogEntry, type SimApp, type SimOrder, type SimWebhook } from './state';
import { publicWebhook } from './webhooks';

export type { SimOrder, SimApp, SimWebhook, SimCustomer, SimLineItem, SimProduct, SimCollection, RequestLogEntry } from './state';
export type { DeliveryOptions, DeliveryResult, DeliveryAttempt } from './deliveries';
export type { FaultSpec, FaultKind } from './faults';
export type { CatalogControl } from './catalog';
export { signQuery } from './oauth';
export { signBody } from './deliveries';
export { API_VERSION } from './state';

export interface CommerceSimulator {
  baseUrl: string;
  /** `${baseUrl}/{shop}` — put it in COMMERCE_SHOP_URL_TEMPLATE. */
  shopUrlTemplate: string;
  /** Registers (or replaces) an app; `scopes` are what an install grants (default: what is requested). */
  addApp(app: SimApp): void;
  addShop(shop: { domain: string; name?: string; id?: number }): void;
  /** Adds orders (a number generates that many); their timestamps follow the shop's latest order, up to now. */
  addOrders(domain: string, orders: Array<Partial<SimOrder>> | number): SimOrder[];
  /** Patches an order and stamps updated_at now (unless the patch sets it). */
  updateOrder(domain: string, orderId: number | string, patch: Partial<SimOrder>): SimOrder;
  deliver(domain: string, topic: string, payload: unknown, options?: DeliveryOptions): Promise<DeliveryResult>;
  /** Every delivery so far with its attempts. */
  deliveries(): DeliveryResult[];
  webhooks(domain: string): SimWebhook[];
  injectFault(fault: FaultSpec): void;
  clearFaults(): void;
  requests(): RequestLogEntry[];
  /**
   * Uninstalls like the platform: revokes the shop's tokens, drops its subscriptions, then delivers app/uninstalled
   * (the shop record as payload) to the app/uninstalled subscription if there was one.
   */
  uninstall(domain: string): Promise<DeliveryResult | undefined>;
  catalog: CatalogControl;
  stop(): Promise<void>;
}

export interface SimulatorOptions {
  /** Default 0: a free port. Always bound to 127.0.0.1. */
  port?: number;
  /** Milliseconds before each delivery retry (at most 19); default 19 × 20 ms. */
  retrySchedule?: number[];
  /** Per-attempt delivery timeout; default 5000 ms (the platform's). */
  deliveryTimeoutMs?: number;
  /** Leaky bucket size per shop and app; default 40. */
  bucketSize?: number;
  /** Leak rate in calls per second; default 2. */
  leakPerSecond?: number;
  /** How long a 'timeout' fault holds a request before a 504; default 30 s. */
  timeoutHoldMs?: number;
  /** Seed of generated data. */
  seed?: number;
}

export async function startCommerceSimulator(options: SimulatorOptions = {}): Promise<CommerceSimulator> {
  const state = createState(options.seed);
  const buckets = new LeakyBuckets({ size: options.bucketSize ?? 40, leakPerSecond: options.leakPerSecond ?? 2 });
  const faults = new FaultList();
  const server = await startServer(state, buckets, faults, { port: options.port ?? 0, timeoutHoldMs: options.timeoutHoldMs ?? 30_000 });
  const deliverer = createDeliverer(state, {
    retrySchedule: options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE,
    timeoutMs: options.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS,
  });

  return {
    baseUrl: server.baseUrl,
    shopUrlTemplate: `${server.baseUrl}/{shop}`,
    addApp: (app) => void state.apps.set(app.clientId, { ...app }),
    addShop({ domain, name, id }) {
      if (state.shops.has(domain)) throw new Error(`commerce simulator: shop ${domain} already exists`);
      const now = isoSeconds(Date.now());
      const shop = {
        info: {
          id: id ?? state.nextId(),
          name: name ?? domain.split('.')[0],
          email: `owner@${domain}`,
          domain,
          myshopify_domain: domain,
          currency: 'USD',
          iana_timezone: 'UTC',
          plan_name: 'basic',
          created_at: now,
          updated_at: now,
        },
        orders: [],
        customers: [],
        webhooks: [],
        products: [],
        collections: [],
        nextOrderNumber: 1001,
      };
      seedCatalog(state, shop);
      state.shops.set(domain, shop);
    },
    addOrders: (domain, orders) => addOrders(state, domain, orders),
    updateOrder: (domain, orderId, patch) => updateOrder(state, domain, orderId, patch),
    deliver: (domain, topic, payload, opts) => deliverer.deliver(domain, topic, payload, opts),
    deliveries: () => deliverer.log(),
    webhooks: (domain) => shopOrThrow(state, domain).webhooks.map((w) => structuredClone(publicWebhook(w))),
    injectFault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    requests: () => state.log.map((r) => ({ ...r })),
    async uninstall(domain) {
      const shop = shopOrThrow(state, domain);
      for (const [token, t] of state.tokens) if (t.domain === domain) state.tokens.delete(token);
      const subscription = shop.webhooks.filter((w) => w.topic === 'app/uninstalled').at(-1);
      shop.webhooks = [];
      if (!subscription) return undefined;
      const clientSecret = state.apps.get(subscription.clientId)?.clientSecret;
      return deliverer.deliver(domain, 'app/uninstalled', shop.info, { address: subscription.address, clientSecret });
    },
    catalog: catalogControl(state),
    async stop() {
      deliverer.stop();
      await server.close();
    },
  };
}
