import type { Knex } from '../../db/knex';
import { raiseInboxItem } from '../../inbox/service';
import { failureCode } from './failureCode';
import * as store from './store';
import type { PageRequest } from './store';

/** doc3 "webhook-health threshold": installed over 72 hours and silent 72 hours. */
export const WEBHOOK_SILENCE_HOURS = 72;
export const WEBHOOKS_SILENT_KIND = 'commerce_webhooks_silent';
export const webhooksSilentDedupKey = (connectionId: string) => `commerce:webhooks-silent:${connectionId}`;

export interface SilentConnection {
  connectionId: string;
  accountId: string;
  shopDomain: string;
  /** False when an open item for this connection already existed (deduplicated). */
  inboxItemCreated: boolean;
}

export interface HealthPageResult {
  checked: number;
  silent: SilentConnection[];
  failed: Array<{ connectionId: string; accountId: string; code: string }>;
  /** Cursor of the next page; null when this was the last. */
  next: string | null;
}

/**
 * One page of the webhook-health sweep (detection only): a connected shop installed over 72 hours whose active
 * subscriptions received nothing for 72 hours or more — or that has no active subscription — gets an inbox item
 * `commerce_webhooks_silent`, one open item per connection however often the sweep finds it. Nothing is repaired
 * here: the order backfill recovers missed orders, the operator re-registers webhooks. A connection whose item
 * cannot be written is reported as failed and the page goes on.
 */
export async function checkWebhookHealthPage(db: Knex, page: PageRequest): Promise<HealthPageResult> {
  const rows = await store.webhookHealthPage(db, page, WEBHOOK_SILENCE_HOURS);
  const result: HealthPageResult = {
    checked: rows.length,
    silent: [],
    failed: [],
    next: rows.length === page.limit ? rows[rows.length - 1].id : null,
  };
  for (const row of rows.filter((r) => r.silent)) {
    try {
      const { created } = await raiseInboxItem(db, row.account_id, {
        kind: WEBHOOKS_SILENT_KIND,
        urgency: 'normal',
        dedupKey: webhooksSilentDedupKey(row.id),
        title: `No webhook received from ${row.shop_domain} for ${WEBHOOK_SILENCE_HOURS} hours`,
        body: {
          connection_id: row.id,
          shop_domain: row.shop_domain,
          installed_at: row.installed_at,
          last_received_at: row.last_received_at,
          active_subscriptions: row.active_subscriptions,
          threshold_hours: WEBHOOK_SILENCE_HOURS,
          hint: 'Check that the app is still installed, then re-register the webhooks (POST /api/commerce/connections/{id}/webhooks). The hourly order backfill recovers missed orders meanwhile.',
        },
      });
      result.silent.push({ connectionId: row.id, accountId: row.account_id, shopDomain: row.shop_domain, inboxItemCreated: created });
    } catch (err) {
      result.failed.push({ connectionId: row.id, accountId: row.account_id, code: failureCode(err) });
    }
  }
  return result;
}
