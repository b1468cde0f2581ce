import { findContactsByIdsOrEmail, type ContactRow } from '../../crm/service';
import type { Knex } from '../../db/knex';
import type { DataPackageResult } from '../../../workflows/commercePrivacyRequest.contract';
import { findInboxItemByDedupKey, raiseInboxItem, type InboxItemRow } from '../../inbox/service';
import { isObject } from '../topics/types';
import { customerMatchOf } from './request';
import { withoutSecrets } from './scrub';
import { countCustomerOrders, findCustomerOrders, type PrivacyRequestRow } from './store';
import type { OrderLogRow } from '../ingestion/store';

export const PRIVACY_DATA_REQUEST_KIND = 'commerce_privacy_data_request';
export const privacyDataRequestDedupKey = (requestId: string) => `commerce:privacy-data-request:${requestId}`;
/** Orders carried in one package, full payloads included; `orders_total` and `orders_truncated` tell when there are more. */
export const MAX_PACKAGED_ORDERS = 100;

const orderJson = (o: OrderLogRow) => ({
  order_id: o.order_id,
  order_number: o.order_number,
  total_amount_cents: Number(o.total_amount_cents),
  currency: o.currency,
  customer_email: o.customer_email,
  order_created_at: o.order_created_at,
  order_updated_at: o.order_updated_at,
  logged_at: o.created_at,
  payload: withoutSecrets(o.raw_payload),
});

const contactJson = (c: ContactRow) => ({
  id: c.id,
  name: c.name,
  email: c.email,
  phone: c.phone,
  company: c.company,
  tags: c.tags,
  notes: c.notes,
  source: c.source,
  commerce: {
    total_spent_cents: Number(c.commerce_total_spent_cents),
    order_count: c.commerce_order_count,
    first_order_at: c.commerce_first_order_at,
    first_order_id: c.commerce_first_order_id,
    last_order_at: c.commerce_last_order_at,
  },
  created_at: c.created_at,
  updated_at: c.updated_at,
});

/** The counts an already raised package reports (zero once a redaction emptied it). */
function packageResultOf(item: InboxItemRow): DataPackageResult {
  const { orders_total: orders, contacts } = item.body;
  return {
    inbox_item_id: item.id,
    orders: typeof orders === 'number' ? orders : 0,
    contacts: Array.isArray(contacts) ? contacts.length : 0,
  };
}

/**
 * customers/data_request: gathers what the service stores about the customer — the shop's logged orders of the
 * customer (columns and payload; order tokens and the status-page URL removed) and the CRM contacts they point at
 * or that hold the customer's email — into one urgent inbox item `commerce_privacy_data_request` for the account to
 * send on. No credential of any kind is in it. One item per request, ever: a fulfilment that runs again (a new run
 * after a closed one, a retried activity) answers the item already raised for the request, even a resolved one,
 * so the package is never sent twice.
 */
export async function packageCustomerData(db: Knex, request: PrivacyRequestRow): Promise<DataPackageResult> {
  const accountId = request.account_id;
  const raised = await findInboxItemByDedupKey(db, accountId, privacyDataRequestDedupKey(request.id));
  if (raised) return packageResultOf(raised);
  const match = customerMatchOf(request);
  const [orders, total] = request.connection_id
    ? await Promise.all([
        findCustomerOrders(db, accountId, request.connection_id, match, MAX_PACKAGED_ORDERS),
        countCustomerOrders(db, accountId, request.connection_id, match),
      ])
    : [[], 0];
  const linked = [...new Set(orders.map((o) => o.crm_contact_id).filter((id): id is string => Boolean(id)))];
  const contacts = await findContactsByIdsOrEmail(db, accountId, linked, request.customer_email);
  const payload = isObject(request.raw_payload) ? request.raw_payload : {};
  const dataRequest = isObject(payload.data_request) ? payload.data_request : {};

  const { item } = await raiseInboxItem(db, accountId, {
    kind: PRIVACY_DATA_REQUEST_KIND,
    urgency: 'urgent',
    dedupKey: privacyDataRequestDedupKey(request.id),
    title: `Customer data requested via ${request.shop_domain}: ${total} order${total === 1 ? '' : 's'} and ${contacts.length} contact${contacts.length === 1 ? '' : 's'} packaged`,
    body: {
      compliance_request_id: request.id,
      shop_domain: request.shop_domain,
      requested_at: request.created_at,
      data_request_id: dataRequest.id ?? null,
      customer: { id: request.customer_id, email: request.customer_email },
      orders_total: total,
      orders_truncated: total > orders.length,
      orders: orders.map(orderJson),
      contacts: contacts.map(contactJson),
      hint: 'Send this data to the customer, then resolve this item. The service keeps nothing else about the customer: products, payments and addresses beyond the order payloads stay on the platform.',
    },
  });
  return { inbox_item_id: item.id, orders: total, contacts: contacts.length };
}
