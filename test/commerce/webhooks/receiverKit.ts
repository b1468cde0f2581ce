import assert from 'node:assert/strict';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { callAt, type CallResult } from '../../helpers/http';
import { eventually } from '../../jobs/jobTestKit';

export { eventually };

export interface TestShop {
  account: TestAccount;
  accountId: string;
  connectionId: string;
  shopDomain: string;
  clientSecret: string;
}

/** An account's commerce app and one connected shop, written directly (the receiver only reads them). */
export async function newShop(
  options: { account?: TestAccount; subscriptions?: string[]; installedAt?: Date; webhookSecretEnc?: string } = {},
): Promise<TestShop> {
  const { db } = harness();
  const account = options.account ?? (await newAccount('Shop Co'));
  const clientSecret = `shpss_${randomBytes(16).toString('hex')}`;
  await db('app_registrations')
    .insert({
      account_id: account.accountId,
      provider: 'commerce',
      client_id: `client-${randomBytes(4).toString('hex')}`,
      client_secret: clientSecret,
    })
    .onConflict(['account_id', 'provider'])
    .ignore();
  const app = await db('app_registrations').where({ account_id: account.accountId, provider: 'commerce' }).first();
  const shopDomain = `shop-${randomBytes(5).toString('hex')}.commerce.test`;
  const [connection] = await db('commerce_connections')
    .insert({
      account_id: account.accountId,
      shop_domain: shopDomain,
      shop_name: 'Test shop',
      scope: 'read_orders',
      installed_at: options.installedAt ?? new Date(Date.now() - 86_400_000),
      webhook_secret_enc: options.webhookSecretEnc ?? null,
    })
    .returning('id');
  for (const topic of options.subscriptions ?? []) {
    await db('commerce_webhook_subscriptions').insert({
      account_id: account.accountId,
      connection_id: connection.id,
      topic,
      endpoint_url: `${harness().baseUrl}/api/webhooks/commerce`,
      api_version: '2025-04',
    });
  }
  return { account, accountId: account.accountId, connectionId: connection.id, shopDomain, clientSecret: app.client_secret };
}

export const sign = (secret: string, body: string | Buffer) => createHmac('sha256', secret).update(body).digest('base64');

export interface DeliverOptions {
  webhookId?: string;
  /** Sign with this secret instead of the shop's. */
  secret?: string;
  /** Send this signature header instead of computing one. */
  signature?: string;
  /** Post to another app (a second replica). */
  baseUrl?: string;
  headers?: Record<string, string>;
}

/** Posts one delivery, signed over the exact bytes sent (a string body goes out verbatim). */
export async function deliver(
  shop: TestShop,
  topic: string,
  body: unknown,
  options: DeliverOptions = {},
): Promise<CallResult & { webhookId: string }> {
  const raw = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
  const webhookId = options.webhookId ?? randomUUID();
  const res = await callAt(options.baseUrl ?? harness().baseUrl, 'POST', '/api/webhooks/commerce', {
    rawBody: raw,
    headers: {
      'content-type': 'application/json',
      'x-commerce-shop-domain': shop.shopDomain,
      'x-commerce-hmac-sha256': options.signature ?? sign(options.secret ?? shop.clientSecret, raw),
      'x-commerce-topic': topic,
      'x-commerce-webhook-id': webhookId,
      ...options.headers,
    },
  });
  return { ...res, webhookId };
}

/** Delivers and asserts the 200 receipt. */
export async function deliverOk(shop: TestShop, topic: string, body: unknown, options: DeliverOptions = {}): Promise<string> {
  const res = await deliver(shop, topic, body, options);
  assert.equal(res.status, 200, res.text);
  return res.webhookId;
}

export interface DeliveryRecord {
  webhook_id: string;
  topic: string;
  outcome: string | null;
  error_code: string | null;
  processed_at: Date | null;
}

export async function deliveryRecords(shop: TestShop): Promise<DeliveryRecord[]> {
  return harness().db('commerce_webhook_deliveries').where({ connection_id: shop.connectionId }).orderBy('received_at');
}

/** Waits (bounded) until the shop's workflow has processed this delivery, and answers its record. */
export async function processed(shop: TestShop, webhookId: string, timeoutMs = 15_000): Promise<DeliveryRecord> {
  return eventually(
    () =>
      harness().db('commerce_webhook_deliveries').where({ connection_id: shop.connectionId, webhook_id: webhookId }).first() as Promise<
        DeliveryRecord | undefined
      >,
    (row) => Boolean(row?.processed_at),
    timeoutMs,
    `delivery ${webhookId} to be processed`,
  ) as Promise<DeliveryRecord>;
}

/** Delivers, asserts 200 and waits until it is processed. */
export async function deliverAndProcess(
  shop: TestShop,
  topic: string,
  body: unknown,
  options: DeliverOptions = {},
): Promise<DeliveryRecord> {
  return processed(shop, await deliverOk(shop, topic, body, options));
}

let orderSeq = 1000;

/** An order as the platform's orders/* webhooks carry it (Admin API 2025-04 shape, trimmed). */
export function orderPayload(overrides: Record<string, unknown> = {}): Record<string, any> {
  const id = 5_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
  const number = ++orderSeq;
  const created = '2026-11-01T10:00:00Z';
  return {
    id,
    admin_graphql_api_id: `gid://commerce/Order/${id}`,
    name: `#${number}`,
    order_number: number,
    email: `buyer-${randomBytes(4).toString('hex')}@example.test`,
    created_at: created,
    updated_at: created,
    currency: 'EUR',
    total_price: '25.00',
    current_total_price: '25.00',
    financial_status: 'paid',
    refunds: [],
    customer: { id: id + 1, first_name: 'Grace', last_name: 'Hopper' },
    ...overrides,
  };
}

export async function contactByEmail(accountId: string, email: string) {
  return harness().db('crm_contacts').where({ account_id: accountId }).whereRaw('lower(email) = lower(?)', [email]).first();
}

export async function orderLog(shop: TestShop, orderId: string | number) {
  return harness()
    .db('commerce_orders_log')
    .where({ connection_id: shop.connectionId, order_id: String(orderId) });
}

export async function outbox(accountId: string, triggerPrefix = 'commerce.') {
  return harness()
    .db('workflow_trigger_outbox')
    .where({ account_id: accountId })
    .whereLike('trigger', `${triggerPrefix}%`)
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

/** Runs `fn` with the harness's relay stopped, so the test decides who dispatches; restarts it after. */
export async function withoutRelay<T>(fn: () => Promise<T>): Promise<T> {
  await harness().dispatcher.stop();
  try {
    return await fn();
  } finally {
    harness().dispatcher.start();
  }
}
