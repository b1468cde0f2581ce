import { z } from 'zod';
import { iso } from '../../http/fields';
import { missingScopes, parseScope } from '../oauth/scopes';
import type { ConnectionRow, SubscriptionRow } from './store';
import type { WebhookRegistration } from './webhooks';

export const connectionSchema = z
  .object({
    id: z.string(),
    shop_domain: z.string(),
    shop_id: z.string().nullable(),
    shop_name: z.string().nullable(),
    status: z.enum(['active', 'disconnected']).describe('`disconnected` once the app was uninstalled or the connection disconnected.'),
    purpose: z
      .enum(['account_default', 'project_override'])
      .describe(
        '`account_default`: the connection projects inherit. The first shop connected on an account (or the first after the default was disconnected) becomes the default; later shops are `project_override`, for projects that override.',
      ),
    scopes: z.array(z.string()).describe('Scopes the shop granted.'),
    missing_scopes: z.array(z.string()).describe('Requested scopes the grant lacks; non-empty means the shop should be reconnected.'),
    installed_at: z.string().nullable(),
    disconnected_at: z.string().nullable(),
    last_synced_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'CommerceConnection' });

export const subscriptionSchema = z
  .object({
    topic: z.string(),
    endpoint_url: z.string(),
    api_version: z.string(),
    is_active: z.boolean(),
    last_received_at: z.string().nullable(),
  })
  .meta({ id: 'CommerceWebhookSubscription' });

export const connectionDetailSchema = connectionSchema
  .extend({
    webhook_subscriptions: z.array(subscriptionSchema),
  })
  .meta({ id: 'CommerceConnectionDetail' });

/** A connection as clients see it: never a token, a secret or an envelope. */
export function toConnectionJson(row: ConnectionRow): z.infer<typeof connectionSchema> {
  return {
    id: row.id,
    shop_domain: row.shop_domain,
    shop_id: row.shop_id,
    shop_name: row.shop_name,
    status: row.disconnected_at ? 'disconnected' : 'active',
    purpose: row.purpose,
    scopes: parseScope(row.scope),
    missing_scopes: missingScopes(row.scope),
    installed_at: iso(row.installed_at),
    disconnected_at: iso(row.disconnected_at),
    last_synced_at: iso(row.last_synced_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toSubscriptionJson(row: SubscriptionRow): z.infer<typeof subscriptionSchema> {
  return {
    topic: row.topic,
    endpoint_url: row.endpoint_url,
    api_version: row.api_version,
    is_active: row.is_active,
    last_received_at: iso(row.last_received_at),
  };
}

export const webhookRegistrationSchema = z
  .object({
    endpoint_url: z.string().describe('`<PUBLIC_APP_URL>/api/webhooks/commerce`.'),
    registered: z.array(z.string()).describe('Topics recorded as active subscriptions at `endpoint_url`.'),
    app_configured: z
      .array(z.string())
      .describe(
        "Of those, the privacy topics (customers/data_request, customers/redact, shop/redact): the platform delivers them to the URL set in the app's settings and refuses them through the API, so they are recorded without an API call. Set the app's compliance webhook URL to `endpoint_url`.",
      ),
    failed: z
      .array(z.object({ topic: z.string(), code: z.string() }))
      .describe(
        'Topics the platform did not accept this time, with the error code; retry with POST /api/commerce/connections/{id}/webhooks.',
      ),
  })
  .meta({ id: 'CommerceWebhookRegistration' });

/** A connection and the outcome of registering its webhooks: the OAuth callback's answer and a re-registration's. */
export const connectionRegistrationSchema = z
  .object({ connection: connectionDetailSchema, webhooks: webhookRegistrationSchema })
  .meta({ id: 'CommerceConnectionRegistration' });

export function toRegistrationJson(r: WebhookRegistration): z.infer<typeof webhookRegistrationSchema> {
  return { endpoint_url: r.endpointUrl, registered: r.registered, app_configured: r.appConfigured, failed: r.failed };
}
