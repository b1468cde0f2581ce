import { isObject } from '../topics/types';
import { orderIdsOf } from './scrub';
import type { CustomerMatch, PrivacyRequestRow } from './store';

export const DATA_REQUEST_TOPIC = 'customers/data_request';
export const CUSTOMER_REDACT_TOPIC = 'customers/redact';
export const SHOP_REDACT_TOPIC = 'shop/redact';
/** The topics with fulfilment rules (service.ts); a request of another topic stays unfulfilled and is only alerted. */
export const FULFILLABLE_TOPICS = [DATA_REQUEST_TOPIC, CUSTOMER_REDACT_TOPIC, SHOP_REDACT_TOPIC];

/**
 * The customer a request is about: the logged `customer.email` and `customer.id`, plus the orders the payload lists
 * (`orders_to_redact` for customers/redact, `orders_requested` for customers/data_request). An order of the shop
 * matching any of them is the customer's — the id and the listed orders still find orders whose email was edited.
 */
export function customerMatchOf(request: PrivacyRequestRow): CustomerMatch {
  const payload = isObject(request.raw_payload) ? request.raw_payload : {};
  const listed = request.topic === CUSTOMER_REDACT_TOPIC ? payload.orders_to_redact : payload.orders_requested;
  return { email: request.customer_email, customerId: request.customer_id, orderIds: orderIdsOf(listed) };
}
