import type { Knex } from '../../db/knex';
import { handleCatalogChange } from './catalog';
import { handleOrder } from './orders';
import { handlePrivacyRequest } from './privacy';
import { handleSubscriptionEvent, SUBSCRIPTION_TRIGGERS } from './subscriptions';
import { handleUninstalled } from './uninstalled';
import { DeliveryRejected, type DeliveryContext, type HandlerOutcome, type TopicEnv } from './types';

type Handler = (db: Knex, ctx: DeliveryContext, env: TopicEnv) => Promise<HandlerOutcome>;

/** Topic → handler (doc3 "Events"). A topic not listed is acknowledged and recorded as `ignored`. */
export const TOPIC_HANDLERS: Record<string, Handler> = {
  'app/uninstalled': handleUninstalled,
  'orders/create': handleOrder,
  'orders/updated': handleOrder,
  'products/create': handleCatalogChange,
  'products/update': handleCatalogChange,
  'products/delete': handleCatalogChange,
  'collections/update': handleCatalogChange,
  'customers/data_request': handlePrivacyRequest,
  'customers/redact': handlePrivacyRequest,
  'shop/redact': handlePrivacyRequest,
  ...Object.fromEntries(Object.keys(SUBSCRIPTION_TRIGGERS).map((topic) => [topic, handleSubscriptionEvent])),
};

/**
 * Routes one delivery by topic. A payload its handler rejects comes back as `failed` with the rejection's code;
 * any other error propagates, so the caller (a Temporal activity) retries it.
 */
export async function routeDelivery(db: Knex, ctx: DeliveryContext, env: TopicEnv): Promise<HandlerOutcome> {
  const handler = TOPIC_HANDLERS[ctx.topic];
  if (!handler) return { outcome: 'ignored', detail: { reason: 'unhandled_topic' } };
  try {
    return await handler(db, ctx, env);
  } catch (err) {
    if (err instanceof DeliveryRejected) return { outcome: 'failed', code: err.code, message: err.message };
    throw err;
  }
}
