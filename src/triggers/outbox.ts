import type { Knex } from '../db/knex';
import {
  insertTriggerOnce,
  insertTriggersOnce,
  nullConnectionTriggerCustomers,
  nullCustomerTriggerIds,
  nullOrderTriggerEmails,
} from './outboxStore';

/**
 * Workflow triggers the service emits (doc3 "Emitted workflow triggers"), written to `workflow_trigger_outbox`
 * in the writer's own transaction, so a trigger exists exactly when the change that fired it committed.
 * A dispatcher (not part of this area yet) delivers rows with `dispatched_at` null and stamps them.
 */
export type TriggerName =
  | 'commerce.order.created'
  | 'commerce.order.updated'
  | 'commerce.subscription.created'
  | 'commerce.subscription.updated'
  | 'commerce.subscription.billing_succeeded'
  | 'commerce.subscription.billing_failed'
  /** doc2 Events "Form submission handling" 3: a new non-spam, non-historical forms ledger row (src/forms/). */
  | 'form_submitted'
  | SitePlatformTriggerName;

/** The workflow triggers fed by site platform deliveries (doc2 Events), one per delivery kind beside form_submitted. */
export const SITE_PLATFORM_TRIGGERS = {
  site_publish: 'site_platform.site.published',
  collection_item_created: 'site_platform.cms_item.created',
  collection_item_changed: 'site_platform.cms_item.changed',
  collection_item_deleted: 'site_platform.cms_item.deleted',
  collection_item_published: 'site_platform.cms_item.published',
  collection_item_unpublished: 'site_platform.cms_item.unpublished',
  page_created: 'site_platform.page.created',
  page_deleted: 'site_platform.page.deleted',
  page_metadata_updated: 'site_platform.page.metadata_updated',
  comment_created: 'site_platform.comment.created',
} as const;
export type SitePlatformTriggerName = (typeof SITE_PLATFORM_TRIGGERS)[keyof typeof SITE_PLATFORM_TRIGGERS];

export interface TriggerInput {
  trigger: TriggerName;
  /** The same key for the same trigger and account is written once (replays and retries fire nothing new). */
  dedupKey: string;
  payload: Record<string, unknown>;
}

/** Writes a trigger unless one with the same (trigger, dedup key) exists for the account; `created` tells which. */
export async function writeTrigger(db: Knex, accountId: string, input: TriggerInput): Promise<{ created: boolean }> {
  return { created: await insertTriggerOnce(db, accountId, input) };
}

/** `writeTrigger` for many triggers in one statement; answers the (trigger, dedup key) pairs newly written. */
export async function writeTriggers(
  db: Knex,
  accountId: string,
  inputs: TriggerInput[],
): Promise<Array<{ trigger: TriggerName; dedupKey: string }>> {
  return (await insertTriggersOnce(db, accountId, inputs)) as Array<{ trigger: TriggerName; dedupKey: string }>;
}

/** Privacy: the connection's order triggers (all, or those of `orderIds`) no longer carry the customer email or contact link. */
export const scrubOrderTriggers = (db: Knex, accountId: string, connectionId: string, orderIds?: string[]) =>
  nullOrderTriggerEmails(db, accountId, connectionId, orderIds);

/** Privacy: the connection's triggers naming this platform customer (subscription events) no longer carry the id. */
export const scrubCustomerTriggers = (db: Knex, accountId: string, connectionId: string, customerId: string) =>
  nullCustomerTriggerIds(db, accountId, connectionId, customerId);

/** Privacy: the connection's triggers no longer carry a customer email or id, nor a contact link; what the event was stays. */
export const scrubConnectionTriggers = (db: Knex, accountId: string, connectionId: string) =>
  nullConnectionTriggerCustomers(db, accountId, connectionId);
