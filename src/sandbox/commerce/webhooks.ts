/** Webhook subscriptions of the Admin API: each app sees and manages only its own subscriptions on a shop. */
import { json, jsonBody, notFound, unprocessable, type SimRequest, type SimResponse } from './http';
import { API_VERSION, isoSeconds, sameId, type ShopState, type SimState, type SimWebhook, type StoredWebhook } from './state';

export const SUBSCRIBABLE_TOPICS = new Set([
  'app/uninstalled',
  'app_subscriptions/update',
  'orders/create',
  'orders/updated',
  'orders/paid',
  'orders/cancelled',
  'orders/fulfilled',
  'orders/delete',
  'products/create',
  'products/update',
  'products/delete',
  'collections/create',
  'collections/update',
  'collections/delete',
  'customers/create',
  'customers/update',
  'customers/delete',
  'shop/update',
  'themes/publish',
  'subscription_contracts/create',
  'subscription_contracts/update',
  'subscription_billing_attempts/success',
  'subscription_billing_attempts/failure',
]);

/** Privacy topics are set in the app's configuration, never through the API; the platform refuses them there. */
export const COMPLIANCE_TOPICS = new Set(['customers/data_request', 'customers/redact', 'shop/redact']);

export function publicWebhook(w: StoredWebhook): SimWebhook {
  const { clientId: _owner, ...visible } = w;
  return visible;
}

function ownWebhooks(shop: ShopState, clientId: string): StoredWebhook[] {
  return shop.webhooks.filter((w) => w.clientId === clientId);
}

export function listWebhooks(shop: ShopState, clientId: string, req: SimRequest): SimResponse {
  const topic = req.query.get('topic');
  const address = req.query.get('address');
  const rows = ownWebhooks(shop, clientId).filter(
    (w) => (topic === null || w.topic === topic) && (address === null || w.address === address),
  );
  return json(200, { webhooks: rows.map(publicWebhook) });
}

export function countWebhooks(shop: ShopState, clientId: string): SimResponse {
  return json(200, { count: ownWebhooks(shop, clientId).length });
}

export function getWebhook(shop: ShopState, clientId: string, id: string): SimResponse {
  const found = ownWebhooks(shop, clientId).find((w) => sameId(w.id, id));
  return found ? json(200, { webhook: publicWebhook(found) }) : notFound();
}

interface WebhookInput {
  topic?: unknown;
  address?: unknown;
  format?: unknown;
  fields?: unknown;
}

function readInput(req: SimRequest): WebhookInput | undefined {
  const body = jsonBody(req) as { webhook?: unknown } | undefined;
  const input = body && typeof body === 'object' ? body.webhook : undefined;
  return input && typeof input === 'object' ? (input as WebhookInput) : undefined;
}

function addressProblem(address: unknown): string | undefined {
  if (typeof address !== 'string' || address === '') return "can't be blank";
  try {
    const url = new URL(address);
    return url.protocol === 'https:' || url.protocol === 'http:' ? undefined : 'is not a valid URL';
  } catch {
    return 'is not a valid URL';
  }
}

export function createWebhook(state: SimState, shop: ShopState, clientId: string, req: SimRequest): SimResponse {
  const input = readInput(req);
  if (!input) return json(400, { errors: { webhook: ['Required parameter missing or invalid'] } });
  const topic = input.topic;
  if (typeof topic !== 'string' || !SUBSCRIBABLE_TOPICS.has(topic)) {
    const hint =
      typeof topic === 'string' && COMPLIANCE_TOPICS.has(topic)
        ? 'Compliance topics are configured in the app settings, not through the API'
        : 'Invalid topic specified';
    return unprocessable('topic', hint);
  }
  const problem = addressProblem(input.address);
  if (problem) return unprocessable('address', problem);
  if (input.format !== undefined && input.format !== 'json') return unprocessable('format', 'only json is supported');
  const address = input.address as string;
  if (ownWebhooks(shop, clientId).some((w) => w.topic === topic && w.address === address)) {
    return unprocessable('address', 'for this topic has already been taken');
  }
  const now = isoSeconds(Date.now());
  const webhook: StoredWebhook = {
    id: state.nextId(),
    topic,
    address,
    format: 'json',
    api_version: API_VERSION,
    fields: Array.isArray(input.fields) ? input.fields.filter((f): f is string => typeof f === 'string') : [],
    metafield_namespaces: [],
    created_at: now,
    updated_at: now,
    clientId,
  };
  shop.webhooks.push(webhook);
  return json(201, { webhook: publicWebhook(webhook) });
}

export function updateWebhook(shop: ShopState, clientId: string, id: string, req: SimRequest): SimResponse {
  const found = ownWebhooks(shop, clientId).find((w) => sameId(w.id, id));
  if (!found) return notFound();
  const input = readInput(req);
  if (!input) return json(400, { errors: { webhook: ['Required parameter missing or invalid'] } });
  if (input.address !== undefined) {
    const problem = addressProblem(input.address);
    if (problem) return unprocessable('address', problem);
    found.address = input.address as string;
  }
  found.updated_at = isoSeconds(Date.now());
  return json(200, { webhook: publicWebhook(found) });
}

export function deleteWebhook(shop: ShopState, clientId: string, id: string): SimResponse {
  const index = shop.webhooks.findIndex((w) => sameId(w.id, id) && w.clientId === clientId);
  if (index < 0) return notFound();
  shop.webhooks.splice(index, 1);
  return json(200, {});
}
