import type { Knex } from '../db/knex';
import { offsetOf, type Page } from '../http/pagination';

export interface ActivityRow {
  id: string;
  account_id: string;
  contact_id: string;
  kind: string;
  body: string | null;
  external_id: string | null;
  occurred_at: Date;
  metadata: Record<string, unknown>;
  created_by: string | null;
  created_at: Date;
}

export type ActivityFields = Pick<ActivityRow, 'contact_id' | 'kind' | 'body' | 'external_id' | 'metadata' | 'created_by'> & {
  occurred_at?: Date;
};

/** Newest occurrence first. */
export async function listActivities(db: Knex, accountId: string, contactId: string, filter: { kind?: string }, page: Page) {
  const filtered = () => {
    const q = db('crm_contact_activities').where({ account_id: accountId, contact_id: contactId });
    if (filter.kind) q.where('kind', filter.kind);
    return q;
  };
  const [rows, [{ count }]] = await Promise.all([
    filtered()
      .select('*')
      .orderBy([
        { column: 'occurred_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)) as Promise<ActivityRow[]>,
    filtered().count({ count: '*' }) as unknown as Promise<{ count: number }[]>,
  ]);
  return { rows, total: Number(count) };
}

/** Inserts an activity; with an external_id already used in the account, inserts nothing and answers undefined. */
export async function insertActivity(db: Knex, accountId: string, fields: ActivityFields): Promise<ActivityRow | undefined> {
  const [row] = await db('crm_contact_activities')
    .insert({ account_id: accountId, ...fields, metadata: JSON.stringify(fields.metadata) })
    .onConflict(db.raw('(account_id, external_id) where external_id is not null'))
    .ignore()
    .returning('*');
  return row;
}

export async function findActivityByExternalId(db: Knex, accountId: string, externalId: string): Promise<ActivityRow | undefined> {
  return db('crm_contact_activities').where({ account_id: accountId, external_id: externalId }).first();
}

/** Set-based `insertActivity`: inserts many activities in one statement, skipping external_ids already used in the account. */
export async function insertActivities(db: Knex, accountId: string, rows: ActivityFields[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await db('crm_contact_activities')
    .insert(rows.map((fields) => ({ account_id: accountId, ...fields, metadata: JSON.stringify(fields.metadata) })))
    .onConflict(db.raw('(account_id, external_id) where external_id is not null'))
    .ignore()
    .returning('id');
  return inserted.length;
}

/** Replaces body and metadata of the activities with these external ids; answers how many were changed. */
export async function redactActivities(
  db: Knex,
  accountId: string,
  redactions: Array<{ externalId: string; body: string; metadata: Record<string, unknown> }>,
): Promise<number> {
  if (redactions.length === 0) return 0;
  const result = await db.raw(
    `update crm_contact_activities a set body = r.body, metadata = r.metadata
     from jsonb_to_recordset(?::jsonb) as r(external_id text, body text, metadata jsonb)
     where a.account_id = ? and a.external_id = r.external_id`,
    [JSON.stringify(redactions.map((r) => ({ external_id: r.externalId, body: r.body, metadata: r.metadata }))), accountId],
  );
  return result.rowCount ?? 0;
}
