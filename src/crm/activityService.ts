import type { Knex } from '../db/knex';
import * as contactStore from './contactStore';
import { contactNotFound } from './errors';
import { invalidField } from '../http/fieldErrors';
import { isUuid } from '../http/ids';
import type { Page } from '../http/pagination';
import * as store from './activityStore';
import type { ActivityRow } from './activityStore';

export type { ActivityRow };

export interface ActivityInput {
  kind: string;
  body?: string | null;
  /** Idempotency handle of the writer, unique per account (e.g. `commerce:order:<orderId>`). */
  externalId?: string | null;
  occurredAt?: Date;
  metadata?: Record<string, unknown>;
  createdBy?: string | null;
}

export async function listActivities(db: Knex, accountId: string, contactId: string, filter: { kind?: string }, page: Page) {
  if (!isUuid(contactId) || !(await contactStore.findContact(db, accountId, contactId))) throw contactNotFound();
  return store.listActivities(db, accountId, contactId, filter, page);
}

/**
 * Adds an activity to a contact's timeline. With an `externalId` already used in the account nothing is written
 * and the existing activity is returned unchanged with `created: false` — replays of a webhook or a ledger row
 * land once, even when they race.
 */
export async function addActivity(
  db: Knex,
  accountId: string,
  contactId: string,
  input: ActivityInput,
): Promise<{ activity: ActivityRow; created: boolean }> {
  if (input.kind === 'note' && !input.body) throw invalidField('body.body', 'a note needs a body');
  if (!isUuid(contactId)) throw contactNotFound();
  const run = async (trx: Knex) => {
    if (!(await contactStore.lockContact(trx, accountId, contactId))) throw contactNotFound();
    const inserted = await store.insertActivity(trx, accountId, {
      contact_id: contactId,
      kind: input.kind,
      body: input.body ?? null,
      external_id: input.externalId ?? null,
      ...(input.occurredAt ? { occurred_at: input.occurredAt } : {}),
      metadata: input.metadata ?? {},
      created_by: input.createdBy ?? null,
    });
    if (inserted) return { activity: inserted, created: true };
    return { activity: (await store.findActivityByExternalId(trx, accountId, input.externalId!))!, created: false };
  };
  return db.isTransaction ? run(db) : db.transaction(run);
}

/**
 * `addActivity` for many activities at once (one statement), for a writer that already holds the contacts (it
 * just upserted them in its transaction): each needs an `externalId`, and one already used in the account is
 * skipped. Answers how many were inserted.
 */
export async function addActivities(
  db: Knex,
  accountId: string,
  inputs: Array<ActivityInput & { contactId: string; externalId: string }>,
): Promise<number> {
  for (const input of inputs) if (input.kind === 'note' && !input.body) throw invalidField('body.body', 'a note needs a body');
  return store.insertActivities(
    db,
    accountId,
    inputs.map((input) => ({
      contact_id: input.contactId,
      kind: input.kind,
      body: input.body ?? null,
      external_id: input.externalId,
      ...(input.occurredAt ? { occurred_at: input.occurredAt } : {}),
      metadata: input.metadata ?? {},
      created_by: input.createdBy ?? null,
    })),
  );
}

/** Privacy: replaces body and metadata of the writer's activities named by external id; answers how many changed. */
export const redactActivities = (
  db: Knex,
  accountId: string,
  redactions: Array<{ externalId: string; body: string; metadata: Record<string, unknown> }>,
) => store.redactActivities(db, accountId, redactions);
