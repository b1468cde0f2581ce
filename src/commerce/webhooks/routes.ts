import { z } from 'zod';
import { MAX_JSON_DEPTH } from '../../http/jsonDepth';
import { route, type RouteDef } from '../../http/route';
import { DISPATCH_BUSY_MS, DISPATCH_IDLE_MS } from './dispatcher';
import { GROUP_COMMIT_MAX_ROWS } from './groupCommit';
import { ReceiverState, receiveDelivery } from './receiver';
import { TARGET_CACHE_TTL_MS } from './targets';
import { DEDUP_MAX_ENTRIES, DEDUP_WINDOW_MS, RecentDeliveries } from './recentDeliveries';

/** Largest delivery body accepted (413 above). Order payloads are far smaller (< 256 KB); the record keeps the body until processed. */
export const WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;

const receiptSchema = z.object({
  received: z.literal(true),
  duplicate: z.boolean().describe('True when this connection already received this webhook id: nothing is handled again.'),
});

const DESCRIPTION = [
  "The one endpoint of every connected shop's webhooks. Headers: `X-Commerce-Shop-Domain`, `X-Commerce-Hmac-SHA256`",
  "(base64 HMAC-SHA256 of the raw body keyed by the account's app `client_secret`), `X-Commerce-Topic`, `X-Commerce-Webhook-Id`.",
  '',
  'Steps: (1) the raw body is read byte for byte, at most 1 MiB (413 above); (2) the shop domain names a connection,',
  'else 404 (the platform does not retry); (3) the signature is checked in constant time, else 401; (4) a duplicate',
  `(same connection and webhook id) is dropped after verification — an in-memory set per API replica for ${DEDUP_WINDOW_MS / 60_000}`,
  `minutes (at most ${DEDUP_MAX_ENTRIES.toLocaleString('en-US')} keys), and durably by the \`commerce_webhook_deliveries\` record,`,
  'so a restart or a second replica never handles a delivery twice; (5) the delivery is recorded with its body and',
  "answered 200 once the record is committed; a relay in the API process then hands it to the shop's workflow",
  "`commerce-shop:<connectionId>`, which routes it by topic and processes the shop's deliveries in order.",
  '',
  `Bound: the 200 waits only for the shop lookup (one indexed query, shared by concurrent deliveries of the shop and reused for ${TARGET_CACHE_TTL_MS / 1000} s:`,
  'a secret change or an uninstall is seen at most that late per API replica), the HMAC',
  `and the durable insert — grouped with concurrent deliveries into one statement (at most ${GROUP_COMMIT_MAX_ROWS} rows) — never for`,
  'Temporal, a platform call or CRM work. The relay hands recorded deliveries over at once when idle, within',
  `${DISPATCH_BUSY_MS} ms during a burst (idle poll ${DISPATCH_IDLE_MS} ms) while Temporal is up; while it is down deliveries are still answered 200, wait in the`,
  'record and flow when it returns — nothing accepted is lost. Handler failures happen after the 200 and never turn into a',
  "5xx: they are recorded on the delivery and raised in the account's inbox (`commerce_webhook_failed`). So is a verified body",
  'that is not JSON or holds a string Postgres cannot store (U+0000, a lone UTF-16 surrogate): 200, recorded failed `invalid_json`;',
  `one that nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels: 200, recorded failed \`json_too_deep\`.`,
  'An orders/create or orders/updated body that is not an order (without `id`, a `currency` code, `created_at` and',
  '`updated_at` date-times or a decimal `total_price`) is recorded failed `invalid_order`: no order is logged, no trigger',
  "fires. An order's dates later than the delivery's receipt are taken as the receipt time.",
  'A 5xx means the record could not be written (the database is down): nothing was accepted, and the platform retries.',
  "`last_received_at` of the shop's subscription to the topic is stamped best-effort (at most every 10 s per shop and topic and replica).",
].join('\n');

/** The commerce webhook receiver; each call builds a receiver with its own in-memory dedup set (one per app). */
export function webhookRoutes(recent: RecentDeliveries = new RecentDeliveries()): RouteDef[] {
  const state = new ReceiverState(recent);
  return [
    route(
      {
        method: 'post',
        path: '/api/webhooks/commerce',
        operationId: 'receiveCommerceWebhook',
        tags: ['Commerce webhooks'],
        auth: { kind: 'none' },
        rawBody: true,
        maxBodyBytes: WEBHOOK_BODY_LIMIT_BYTES,
        summary: 'Receive a webhook delivery from a connected shop.',
        description: DESCRIPTION,
        responses: { 200: { description: 'Verified and accepted (or a dropped duplicate)', schema: receiptSchema } },
        errors: [
          {
            status: 400,
            code: 'webhook_headers_missing',
            description: 'A verified delivery without a well-formed `X-Commerce-Topic` or `X-Commerce-Webhook-Id`.',
          },
          {
            status: 401,
            code: 'webhook_signature_invalid',
            description: 'The signature does not match the raw body under the app client_secret.',
          },
          { status: 404, code: 'commerce_shop_unknown', description: 'No connection has this shop domain (or the header is missing).' },
          { status: 413, code: 'payload_too_large', description: 'The body is over 1 MiB.' },
        ],
      },
      async ({ rawBody, ctx, deps }) => {
        const header = (name: string) => ctx.get(name) || undefined;
        const receipt = await receiveDelivery(deps, state, {
          rawBody,
          shopDomain: header('x-commerce-shop-domain'),
          signature: header('x-commerce-hmac-sha256'),
          topic: header('x-commerce-topic'),
          webhookId: header('x-commerce-webhook-id'),
        });
        return { status: 200, body: { received: true as const, duplicate: receipt.duplicate } };
      },
    ),
  ];
}

/** Every route of the receiver: the webhook endpoint (the inbox its failures are raised in is mounted by src/app). */
export function receiverRoutes(): RouteDef[] {
  return webhookRoutes();
}
