import type { Knex } from '../../db/knex';
import { insertComplianceRequest } from './store';
import { idText, isObject, textOrNull, type DeliveryContext, type HandlerOutcome } from './types';

/**
 * customers/data_request, customers/redact, shop/redact: one row in the privacy-request log (`fulfilled_at`
 * empty); the compliance sweep fulfils it within 30 days. The customer is read from `customer.{id,email}`;
 * shop/redact has none. The shop domain is the payload's, else the connection's.
 */
export async function handlePrivacyRequest(db: Knex, ctx: DeliveryContext): Promise<HandlerOutcome> {
  const payload = isObject(ctx.payload) ? ctx.payload : {};
  const customer = isObject(payload.customer) ? payload.customer : {};
  const { id } = await insertComplianceRequest(db, ctx.accountId, {
    connectionId: ctx.connectionId,
    topic: ctx.topic,
    shopDomain: textOrNull(payload.shop_domain) ?? ctx.shopDomain,
    customerId: idText(customer.id),
    customerEmail: textOrNull(customer.email),
    payload: ctx.payload,
  });
  return { outcome: 'processed', detail: { compliance_request_id: id } };
}
