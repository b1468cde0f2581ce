import type { Knex } from '../../db/knex';
import { emptyRequestItems, scrubCustomerItems } from '../../inbox/service';
import { scrubCustomerTriggers } from '../../triggers/outbox';
import { PRIVACY_DATA_REQUEST_KIND } from './dataPackage';
import { DATA_REQUEST_TOPIC } from './request';
import { scrubOrderPayload } from './scrub';
import * as store from './store';
import type { CustomerMatch, PrivacyRequestRow } from './store';

/** What an emptied data package says instead of the customer data it held. */
export const PACKAGE_CUSTOMER_REDACTED_HINT = 'The customer was redacted (customers/redact): the packaged customer data was removed.';

/** The inbox item kind of a failed CRM bridge: its error may quote a contact. */
export const BRIDGE_FAILED_KIND = 'commerce_order_bridge_failed';

/**
 * customers/redact, beyond the orders and contacts: what else the service stored about the customer in this shop.
 * - the shop's privacy requests naming the customer (by platform id or email), the redact itself included, lose the
 *   customer (email, platform id, payload's customer and contact details); the request ids, topics, times and the
 *   order ids the platform listed stay as the record that each was asked and fulfilled;
 * - the data packages of those data requests are emptied (which request each was for stays);
 * - inbox items naming the customer (subscription billing failures, overdue-request alerts) lose the customer id,
 *   and CRM-bridge failures of the customer's orders lose their error text;
 * - triggers naming the customer (subscription events) lose the customer id.
 * Runs in the redaction's transaction; running it again changes nothing.
 */
export async function scrubCustomerTraces(trx: Knex, request: PrivacyRequestRow, match: CustomerMatch, orderIds: string[]): Promise<void> {
  const accountId = request.account_id;
  const requests = await store.customerPrivacyRequests(trx, accountId, request.shop_domain, request.id, match);
  for (const r of requests) await store.scrubPrivacyRequest(trx, accountId, r.id, scrubOrderPayload(r.raw_payload));
  await emptyRequestItems(
    trx,
    accountId,
    PRIVACY_DATA_REQUEST_KIND,
    requests.filter((r) => r.topic === DATA_REQUEST_TOPIC).map((r) => r.id),
    PACKAGE_CUSTOMER_REDACTED_HINT,
  );
  await scrubCustomerItems(trx, accountId, {
    connectionId: request.connection_id,
    customerId: match.customerId,
    requestIds: requests.map((r) => r.id),
    orderIds,
    errorKind: BRIDGE_FAILED_KIND,
  });
  if (request.connection_id && match.customerId) await scrubCustomerTriggers(trx, accountId, request.connection_id, match.customerId);
}
