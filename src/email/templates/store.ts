import type { Knex } from '../../db/knex';
import { offsetOf, type Page } from '../../http/pagination';

export interface TemplateRow {
  id: string;
  account_id: string;
  name: string;
  subject: string;
  html: string | null;
  text: string | null;
  created_at: Date;
  updated_at: Date;
}

export type TemplateFields = Pick<TemplateRow, 'name' | 'subject' | 'html' | 'text'>;

const table = 'email_templates';

/** The unique index on (account_id, lower(name)) of migration 20261122004000. */
export const NAME_INDEX = 'email_templates_account_name';

export async function insertTemplate(db: Knex, accountId: string, fields: TemplateFields): Promise<TemplateRow> {
  const [row] = await db(table)
    .insert({ account_id: accountId, ...fields })
    .returning('*');
  return row;
}

/** Alphabetical by name, ignoring case. */
export async function listTemplates(db: Knex, accountId: string, page: Page) {
  const [rows, [{ count }]] = await Promise.all([
    db(table)
      .where('account_id', accountId)
      .select('*')
      .orderByRaw('lower(name) asc, id asc')
      .limit(page.limit)
      .offset(offsetOf(page)) as Promise<TemplateRow[]>,
    db(table).where('account_id', accountId).count({ count: '*' }) as unknown as Promise<Array<{ count: number }>>,
  ]);
  return { rows, total: Number(count) };
}

export async function findTemplate(db: Knex, accountId: string, id: string): Promise<TemplateRow | undefined> {
  return db(table).where({ account_id: accountId, id }).first();
}

/** The template, its row locked for the rest of the transaction `trx`. */
export async function lockTemplate(trx: Knex.Transaction, accountId: string, id: string): Promise<TemplateRow | undefined> {
  return trx(table).where({ account_id: accountId, id }).forUpdate().first();
}

export async function findTemplateByName(db: Knex, accountId: string, name: string): Promise<TemplateRow | undefined> {
  return db(table).where('account_id', accountId).whereRaw('lower(name) = lower(?)', [name]).first();
}

export async function updateTemplate(
  db: Knex,
  accountId: string,
  id: string,
  fields: Partial<TemplateFields>,
): Promise<TemplateRow | undefined> {
  const [row] = await db(table)
    .where({ account_id: accountId, id })
    .update({ ...fields, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

export async function deleteTemplate(db: Knex, accountId: string, id: string): Promise<boolean> {
  return (await db(table).where({ account_id: accountId, id }).delete()) > 0;
}
