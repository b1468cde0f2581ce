import type { Knex } from '../../db/knex';
import { raiseInboxItem } from '../../inbox/service';
import { writeTrigger, type TriggerName } from '../../triggers/outbox';
import { DeliveryRejected, idText, isObject, textOrNull, type DeliveryContext, type HandlerOutcome, type Json } from './types';

/** The subscription topics and the trigger each fires. */
export const SUBSCRIPTION_TRIGGERS: Record<string, TriggerName> = {
  'subscription_contracts/create': 'commerce.subscription.created',
  'subscription_contracts/update': 'commerce.subscription.updated',
  'subscription_billing_attempts/success': 'commerce.subscription.billing_succeeded',
  'subscription_billing_attempts/failure': 'commerce.subscription.billing_failed',
};

/** One shape for the four topics; fields a topic does not carry are null. */
export interface NormalizedSubscriptionEvent {
  connection_id: string;
  topic: string;
  contract_id: string;
  status: string | null;
  customer_id: string | null;
  currency: string | null;
  billing_interval: string | null;
  billing_interval_count: number | null;
  origin_order_id: string | null;
  revision_id: string | null;
  billing_attempt_id: string | null;
  order_id: string | null;
  error_code: string | null;
  error_message: string | null;
}

/**
 * Contract payloads carry the contract as `id`; billing-attempt payloads carry the attempt as `id` and the contract
 * as `subscription_contract_id`. A payload without a contract id is rejected (nothing to attach the event to).
 */
export function normalizeSubscriptionEvent(connectionId: string, topic: string, payload: unknown): NormalizedSubscriptionEvent {
  const p: Json = isObject(payload) ? payload : {};
  const isAttempt = topic.startsWith('subscription_billing_attempts/');
  const contractId = idText(isAttempt ? p.subscription_contract_id : p.id);
  if (!contractId) throw new DeliveryRejected('invalid_subscription_payload', 'the payload names no subscription contract');
  const billing = isObject(p.billing_policy) ? p.billing_policy : {};
  const count = billing.interval_count;
  return {
    connection_id: connectionId,
    topic,
    contract_id: contractId,
    status: textOrNull(p.status),
    customer_id: idText(p.customer_id),
    currency: textOrNull(p.currency_code),
    billing_interval: textOrNull(billing.interval),
    billing_interval_count: typeof count === 'number' && Number.isInteger(count) ? count : null,
    origin_order_id: idText(p.origin_order_id),
    revision_id: idText(p.revision_id),
    billing_attempt_id: isAttempt ? idText(p.id) : null,
    order_id: idText(p.order_id),
    error_code: textOrNull(p.error_code),
    error_message: textOrNull(p.error_message),
  };
}

/**
 * The four subscription topics: payload normalised, the matching `commerce.subscription.*` trigger written
 * (deduplicated per contract revision or per billing attempt; the webhook id when the payload has neither), and
 * on a billing failure an urgent inbox item — one open item per contract, however often its billing fails.
 */
export async function handleSubscriptionEvent(db: Knex, ctx: DeliveryContext): Promise<HandlerOutcome> {
  const event = normalizeSubscriptionEvent(ctx.connectionId, ctx.topic, ctx.payload);
  const trigger = SUBSCRIPTION_TRIGGERS[ctx.topic];
  const version = event.billing_attempt_id
    ? `attempt:${event.billing_attempt_id}`
    : event.revision_id
      ? `revision:${event.revision_id}`
      : `webhook:${ctx.webhookId}`;
  return db.transaction(async (trx) => {
    const { created } = await writeTrigger(trx, ctx.accountId, {
      trigger,
      dedupKey: `subscription:${ctx.connectionId}:${event.contract_id}:${version}`,
      payload: { ...event },
    });
    if (ctx.topic === 'subscription_billing_attempts/failure') {
      await raiseInboxItem(trx, ctx.accountId, {
        kind: 'commerce_subscription_billing_failed',
        urgency: 'urgent',
        dedupKey: `commerce:billing-failed:${ctx.connectionId}:${event.contract_id}`,
        title: `A subscription payment failed in ${ctx.shopDomain}`,
        body: { shop_domain: ctx.shopDomain, ...event },
      });
    }
    return { outcome: 'processed', detail: { trigger, trigger_written: created } } as const;
  });
}
