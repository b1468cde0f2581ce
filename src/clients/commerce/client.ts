import { z } from 'zod';
import type { Config } from '../../config';
import { createPlatformHttp, type HttpOptions, type PlatformResponse } from './http';
import { commerceErrors } from './errors';
import { nextPageInfo } from './linkHeader';
import { shopBaseUrl } from './shopDomain';
import {
  COMMERCE_API_VERSION,
  type CallLimit,
  type CommerceOrder,
  type CommerceShop,
  type CommerceWebhook,
  type ListOrdersInput,
  type OrdersPage,
  type ShopAccess,
  type TokenGrant,
} from './types';

export const ORDERS_PAGE_MAX = 250;
const ORDERS_PAGE_DEFAULT = 50;

const id = z.union([z.string().min(1), z.number()]).transform(String);
const tokenSchema = z.object({ access_token: z.string().min(1), scope: z.string() });
const shopSchema = z.object({
  shop: z.object({ id, name: z.string(), domain: z.string().nullish(), email: z.string().nullish(), currency: z.string().nullish() }),
});
const orderSchema = z.looseObject({ id: z.union([z.string(), z.number()]) });
const ordersSchema = z.object({ orders: z.array(orderSchema) });
const webhookSchema = z.object({
  id,
  topic: z.string(),
  address: z.string(),
  format: z.string().default('json'),
  api_version: z.string().nullish(),
});

export interface CommerceClient {
  /** Trades the authorization code of the OAuth callback for an offline admin token. */
  exchangeCode(shopDomain: string, input: { clientId: string; clientSecret: string; code: string }): Promise<TokenGrant>;
  getShop(shop: ShopAccess): Promise<CommerceShop>;
  /** One page of orders (status any), oldest update first is not promised; follow `nextPageInfo` to the end. */
  listOrders(shop: ShopAccess, input?: ListOrdersInput): Promise<OrdersPage>;
  createWebhook(shop: ShopAccess, input: { topic: string; address: string }): Promise<CommerceWebhook>;
  listWebhooks(shop: ShopAccess): Promise<CommerceWebhook[]>;
  deleteWebhook(shop: ShopAccess, webhookId: string): Promise<void>;
  /** The shop's bucket as last reported by the platform, if a call was made. */
  callLimit(shopDomain: string): CallLimit | undefined;
}

/**
 * The HTTP client of the commerce platform's Admin API (pinned to 2025-04). The shop's base URL comes from
 * `COMMERCE_SHOP_URL_TEMPLATE`; the admin token goes in `X-Commerce-Access-Token` and nowhere else.
 */
export function createCommerceClient(
  config: Pick<Config, 'COMMERCE_SHOP_URL_TEMPLATE'>,
  options: Partial<HttpOptions> = {},
): CommerceClient {
  const http = createPlatformHttp({ timeoutMs: 10_000, maxRateLimitRetries: 2, maxRetryWaitMs: 10_000, ...options });
  const base = (shopDomain: string) => shopBaseUrl(config.COMMERCE_SHOP_URL_TEMPLATE, shopDomain);
  const admin = (shopDomain: string, path: string) => `${base(shopDomain)}/admin/api/${COMMERCE_API_VERSION}/${path}`;

  function parse<T extends z.ZodType>(schema: T, res: PlatformResponse, name: string): z.output<T> {
    const parsed = schema.safeParse(res.body);
    if (!parsed.success) throw commerceErrors.malformed(name, res.status);
    return parsed.data;
  }

  const toWebhook = (w: z.output<typeof webhookSchema>): CommerceWebhook => ({ ...w, api_version: w.api_version ?? null });

  return {
    async exchangeCode(shopDomain, { clientId, clientSecret, code }) {
      const name = 'POST oauth/access_token';
      const res = await http.call({
        name,
        method: 'POST',
        shopDomain,
        url: `${base(shopDomain)}/admin/oauth/access_token`,
        json: { client_id: clientId, client_secret: clientSecret, code },
      });
      const token = parse(tokenSchema, res, name);
      return { accessToken: token.access_token, scope: token.scope };
    },

    async getShop(shop) {
      const name = 'GET shop.json';
      const res = await http.call({
        name,
        method: 'GET',
        shopDomain: shop.shopDomain,
        accessToken: shop.accessToken,
        url: admin(shop.shopDomain, 'shop.json'),
      });
      const { shop: s } = parse(shopSchema, res, name);
      return { id: s.id, name: s.name, domain: s.domain ?? null, email: s.email ?? null, currency: s.currency ?? null };
    },

    async listOrders(shop, input = {}) {
      const name = 'GET orders.json';
      const limit = Math.min(Math.max(Math.trunc(input.limit ?? ORDERS_PAGE_DEFAULT), 1), ORDERS_PAGE_MAX);
      const query = new URLSearchParams({ limit: String(limit) });
      if (input.pageInfo) {
        query.set('page_info', input.pageInfo); // a cursor carries its filters; the platform refuses others beside it
      } else {
        query.set('status', 'any');
        if (input.updatedAtMin) query.set('updated_at_min', new Date(input.updatedAtMin).toISOString());
        if (input.order) query.set('order', input.order);
      }
      const res = await http.call({
        name,
        method: 'GET',
        shopDomain: shop.shopDomain,
        accessToken: shop.accessToken,
        url: `${admin(shop.shopDomain, 'orders.json')}?${query}`,
      });
      const { orders } = parse(ordersSchema, res, name);
      return { orders: orders as CommerceOrder[], nextPageInfo: nextPageInfo(res.headers.link) };
    },

    async createWebhook(shop, { topic, address }) {
      const name = 'POST webhooks.json';
      const res = await http.call({
        name,
        method: 'POST',
        shopDomain: shop.shopDomain,
        accessToken: shop.accessToken,
        url: admin(shop.shopDomain, 'webhooks.json'),
        json: { webhook: { topic, address, format: 'json' } },
      });
      return toWebhook(parse(z.object({ webhook: webhookSchema }), res, name).webhook);
    },

    async listWebhooks(shop) {
      const name = 'GET webhooks.json';
      const res = await http.call({
        name,
        method: 'GET',
        shopDomain: shop.shopDomain,
        accessToken: shop.accessToken,
        url: `${admin(shop.shopDomain, 'webhooks.json')}?limit=250`,
      });
      return parse(z.object({ webhooks: z.array(webhookSchema) }), res, name).webhooks.map(toWebhook);
    },

    async deleteWebhook(shop, webhookId) {
      await http.call({
        name: 'DELETE webhooks/{id}.json',
        method: 'DELETE',
        shopDomain: shop.shopDomain,
        accessToken: shop.accessToken,
        url: admin(shop.shopDomain, `webhooks/${encodeURIComponent(webhookId)}.json`),
      });
    },

    callLimit: (shopDomain) => http.callLimit(shopDomain),
  };
}
