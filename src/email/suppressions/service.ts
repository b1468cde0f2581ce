import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import type { Page } from '../../http/pagination';
import { groupedSuppressionLookup } from './groupedLookup';
import * as store from './store';
import type { SuppressionReason, SuppressionRow } from './store';

export type { SuppressionReason, SuppressionRow } from './store';

/** Addresses compare in lower case, the whole address (local part too: real mailboxes are case-insensitive). */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

const suppressionNotFound = () => new ApiError(404, 'suppression_not_found', 'this address is not on the suppression list');

/** Which of `emails` the account suppresses, in lower case: the send path refuses a message naming any of them. */
export async function suppressedAmong(db: Knex, accountId: string, emails: string[]): Promise<Set<string>> {
  const rows = await store.suppressedRows(db, accountId, [...new Set(emails.map(normaliseEmail))]);
  return new Set(rows.map((r) => r.email));
}

/**
 * The suppression rows behind `suppressedAmong`, with their reasons: the send path's check, grouped with the checks
 * of other sends in flight (groupedLookup.ts) unless it runs in a transaction.
 */
export async function suppressionsAmong(db: Knex, accountId: string, emails: string[]): Promise<SuppressionRow[]> {
  const distinct = [...new Set(emails.map(normaliseEmail))];
  if (db.isTransaction) return store.suppressedRows(db, accountId, distinct);
  return groupedSuppressionLookup(db).lookup(accountId, distinct);
}

/** Suppresses an address (201 when new, 200 when it already was: the first reason stays). */
export function addSuppression(
  db: Knex,
  accountId: string,
  email: string,
  reason: SuppressionReason,
  messageId: string | null = null,
): Promise<{ row: SuppressionRow; created: boolean }> {
  return store.addSuppression(db, accountId, { email: normaliseEmail(email), reason, messageId });
}

export function listSuppressions(db: Knex, accountId: string, page: Page, filter: { email?: string }) {
  return store.listSuppressions(db, accountId, page, { email: filter.email ? normaliseEmail(filter.email) : undefined });
}

export async function getSuppression(db: Knex, accountId: string, email: string): Promise<SuppressionRow> {
  const row = await store.findSuppression(db, accountId, normaliseEmail(email));
  if (!row) throw suppressionNotFound();
  return row;
}

/** Sends to the address are allowed again; a later hard bounce or complaint adds it back. */
export async function removeSuppression(db: Knex, accountId: string, email: string): Promise<void> {
  if (!(await store.deleteSuppression(db, accountId, normaliseEmail(email)))) throw suppressionNotFound();
}
