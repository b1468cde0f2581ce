import type { Knex } from '../../db/knex';
import type {
  CustomerRedaction,
  DataPackageResult,
  PrivacyFulfilment,
  ShopRedaction,
} from '../../../workflows/commercePrivacyRequest.contract';
import { packageCustomerData } from './dataPackage';
import { redactCustomer, redactShop } from './redaction';
import { CUSTOMER_REDACT_TOPIC, DATA_REQUEST_TOPIC, SHOP_REDACT_TOPIC } from './request';
import { findRequest, lockRequest, markFulfilled, type PrivacyRequestRow } from './store';

/** The privacy rules as a service; the per-request workflow calls `fulfilPrivacyRequest` through an activity. */
export { packageCustomerData, redactCustomer, redactShop };
export type { PrivacyRequestRow };

/** Runs `work` on the locked request and stamps `fulfilled_at` in the same transaction; null when it was fulfilled meanwhile. */
async function fulfilAtomically<T>(
  db: Knex,
  request: PrivacyRequestRow,
  work: (trx: Knex, locked: PrivacyRequestRow) => Promise<T>,
): Promise<T | null> {
  return db.transaction(async (trx) => {
    const locked = await lockRequest(trx, request.account_id, request.id);
    if (!locked || locked.fulfilled_at) return null;
    const detail = await work(trx, locked);
    await markFulfilled(trx, request.account_id, request.id);
    return detail;
  });
}

/**
 * Fulfils one logged privacy request and sets its `fulfilled_at` (doc3): customers/data_request packages the
 * customer's stored data into an urgent inbox item; customers/redact anonymises the customer's stored data;
 * shop/redact disconnects the shop and anonymises every person's data that came from it. A fulfilled request answers `already_fulfilled` and
 * changes nothing, so running it again (sweep retries, activity retries) is safe.
 */
export async function fulfilPrivacyRequest(
  db: Knex,
  accountId: string,
  requestId: string,
  onProgress?: (scrubbed: number) => void,
): Promise<PrivacyFulfilment> {
  const request = await findRequest(db, accountId, requestId);
  if (!request) return { status: 'not_found' };
  const { topic } = request;
  if (request.fulfilled_at) return { status: 'already_fulfilled', topic };

  let detail: DataPackageResult | CustomerRedaction | ShopRedaction | null;
  if (topic === DATA_REQUEST_TOPIC) {
    detail = await fulfilAtomically(db, request, (trx, locked) => packageCustomerData(trx, locked));
  } else if (topic === CUSTOMER_REDACT_TOPIC) {
    detail = await fulfilAtomically(db, request, (trx, locked) => redactCustomer(trx, locked));
  } else if (topic === SHOP_REDACT_TOPIC) {
    // Thousands of rows: batched transactions, then the stamp. A crash in between re-runs the (idempotent) scrub.
    detail = await redactShop(db, request, onProgress);
    await markFulfilled(db, accountId, requestId);
  } else {
    return { status: 'unsupported_topic', topic };
  }
  return detail === null ? { status: 'already_fulfilled', topic } : { status: 'fulfilled', topic, detail };
}
