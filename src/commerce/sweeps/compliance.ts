import type { Knex } from '../../db/knex';
import { recordAlert } from '../../alerts/service';
import { raiseInboxItem } from '../../inbox/service';
import { FULFILLABLE_TOPICS } from '../privacy/request';
import * as store from './store';
import type { PageRequest } from './store';

export type { PageRequest };

/** doc3 "privacy-request fulfilment deadline": 30 days, then an urgent alert. */
export const PRIVACY_DEADLINE_DAYS = 30;
export const PRIVACY_OVERDUE_KIND = 'commerce_privacy_request_overdue';
export const privacyOverdueDedupKey = (requestId: string) => `commerce:privacy-overdue:${requestId}`;

export interface PendingPrivacyRequest {
  requestId: string;
  accountId: string;
  connectionId: string | null;
  topic: string;
}

/**
 * One page of unfulfilled privacy requests with fulfilment rules, for the sweep to start each one's fulfilment
 * workflow. A request of another topic is left out: no run could fulfil it, and the 30-day alert reaches someone.
 */
export async function listUnfulfilledPrivacyRequests(
  db: Knex,
  page: PageRequest,
): Promise<{ requests: PendingPrivacyRequest[]; next: string | null }> {
  const rows = await store.unfulfilledRequestsPage(db, page, FULFILLABLE_TOPICS);
  return {
    requests: rows.map((r) => ({ requestId: r.id, accountId: r.account_id, connectionId: r.connection_id, topic: r.topic })),
    next: rows.length === page.limit ? rows[rows.length - 1].id : null,
  };
}

/**
 * Raises one urgent inbox item `commerce_privacy_request_overdue` (and the `privacy_request.overdue` alert) per
 * unfulfilled request older than 30 days and
 * stamps its `alerted_at`, in one transaction per batch of up to `limit` requests: a request is alerted once, even
 * when two sweeps overlap (rows are claimed with SKIP LOCKED) or the item was resolved while the request stays open.
 * Answers how many requests were alerted; fewer than `limit` means none is left.
 */
export async function alertOverduePrivacyRequests(db: Knex, limit: number): Promise<{ alerted: number; requestIds: string[] }> {
  return db.transaction(async (trx) => {
    const rows = await store.claimOverdueRequests(trx, PRIVACY_DEADLINE_DAYS, limit);
    for (const row of rows) {
      const { item } = await raiseInboxItem(trx, row.account_id, {
        kind: PRIVACY_OVERDUE_KIND,
        urgency: 'urgent',
        dedupKey: privacyOverdueDedupKey(row.id),
        title: `A ${row.topic} privacy request from ${row.shop_domain} is unfulfilled after ${PRIVACY_DEADLINE_DAYS} days`,
        body: {
          compliance_request_id: row.id,
          topic: row.topic,
          shop_domain: row.shop_domain,
          connection_id: row.connection_id,
          customer_id: row.customer_id,
          requested_at: row.created_at,
          deadline_days: PRIVACY_DEADLINE_DAYS,
          hint: 'The platform requires privacy requests to be fulfilled within 30 days. The hourly compliance sweep keeps retrying customers/data_request, customers/redact and shop/redact; its workflow is commerce-privacy:<compliance_request_id> in the Temporal UI. A request of another topic needs a person.',
        },
      });
      const privacyRequest = {
        compliance_request_id: row.id,
        topic: row.topic,
        shop_domain: row.shop_domain,
        connection_id: row.connection_id,
        requested_at: new Date(row.created_at).toISOString(),
        deadline_days: PRIVACY_DEADLINE_DAYS,
      };
      const data = { privacy_request: privacyRequest, inbox_item_id: item.id };
      await recordAlert(trx, row.account_id, 'privacy_request.overdue', data, `privacy:${row.id}`);
      await store.markAlerted(trx, row.account_id, row.id);
    }
    return { alerted: rows.length, requestIds: rows.map((r) => r.id) };
  });
}
