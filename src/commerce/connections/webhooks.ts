import { ApiError } from '../../http/errors';
import { COMMERCE_API_VERSION, type CommerceWebhook } from '../../clients/commerce';
import type { Config } from '../../config';
import { commerceClientOf, type CommerceDeps } from './deps';
import { saveSubscription, type ConnectionRow } from './store';
import { shopAccessOf } from './tokens';

/** Every topic the service subscribes a connected shop to. */
export const STANDARD_WEBHOOK_TOPICS = [
  'app/uninstalled',
  'orders/create',
  'orders/updated',
  'products/create',
  'products/update',
  'products/delete',
  'collections/update',
  'customers/data_request',
  'customers/redact',
  'shop/redact',
  'subscription_contracts/create',
  'subscription_contracts/update',
  'subscription_billing_attempts/success',
  'subscription_billing_attempts/failure',
] as const;

/**
 * Privacy topics are not subscribed through the API: the platform takes their URL from the app's settings (the
 * account sets it to the webhook URL when it registers its app) and refuses them on `webhooks.json`.
 */
export const APP_CONFIGURED_TOPICS: ReadonlySet<string> = new Set(['customers/data_request', 'customers/redact', 'shop/redact']);

export const WEBHOOK_PATH = '/api/webhooks/commerce';

/** Where the shops deliver: `<PUBLIC_APP_URL>/api/webhooks/commerce`. */
export function webhookEndpointUrl(config: Pick<Config, 'PUBLIC_APP_URL'>): string {
  if (!config.PUBLIC_APP_URL) throw new ApiError(503, 'commerce_not_configured', 'PUBLIC_APP_URL is not set on the service');
  return `${config.PUBLIC_APP_URL.replace(/\/+$/, '')}${WEBHOOK_PATH}`;
}

export interface WebhookRegistration {
  endpointUrl: string;
  /** Every topic now recorded as an active subscription at `endpointUrl`. */
  registered: string[];
  /** Of those, the privacy topics the platform delivers per the app's settings (recorded, not created). */
  appConfigured: string[];
  failed: Array<{ topic: string; code: string }>;
}

/**
 * Subscribes the shop to every standard topic at the current webhook URL and records each subscription
 * (api_version 2025-04, active); the privacy topics are recorded without an API call (see APP_CONFIGURED_TOPICS). Idempotent: a subscription already at the URL is kept; one of the same topic at
 * another URL (PUBLIC_APP_URL changed) is deleted and created again at the current one. A topic that fails is
 * reported, not thrown, so one platform hiccup does not undo the others; running it again finishes the job.
 */
export async function registerStandardWebhooks(deps: CommerceDeps, connection: ConnectionRow): Promise<WebhookRegistration> {
  const endpointUrl = webhookEndpointUrl(deps.config);
  const client = commerceClientOf(deps);
  const access = await shopAccessOf(deps, connection);
  const result: WebhookRegistration = { endpointUrl, registered: [], appConfigured: [], failed: [] };
  const record = (topic: string, platformId: string | null) =>
    saveSubscription(deps.db, connection.account_id, connection.id, {
      topic,
      endpoint_url: endpointUrl,
      api_version: COMMERCE_API_VERSION,
      platform_subscription_id: platformId,
    });
  const fail = (topic: string, err: unknown) => {
    const code = (err as ApiError).code ?? 'internal';
    result.failed.push({ topic, code });
    deps.logger.warn({ connectionId: connection.id, topic, code }, 'commerce webhook registration failed');
  };

  const viaApi = STANDARD_WEBHOOK_TOPICS.filter((t) => !APP_CONFIGURED_TOPICS.has(t));
  let existing: CommerceWebhook[] = [];
  try {
    existing = await client.listWebhooks(access);
  } catch (err) {
    viaApi.forEach((topic) => fail(topic, err));
  }
  for (const topic of result.failed.length ? [] : viaApi) {
    try {
      const ofTopic = existing.filter((w) => w.topic === topic);
      let current = ofTopic.find((w) => w.address === endpointUrl);
      for (const stale of ofTopic.filter((w) => w !== current)) await client.deleteWebhook(access, stale.id);
      current ??= await client.createWebhook(access, { topic, address: endpointUrl });
      await record(topic, current.id);
      result.registered.push(topic);
    } catch (err) {
      fail(topic, err);
    }
  }
  for (const topic of APP_CONFIGURED_TOPICS) {
    await record(topic, null);
    result.registered.push(topic);
    result.appConfigured.push(topic);
  }
  return result;
}
