import type { Knex } from '../db/knex';
import { offsetOf, type Page } from '../http/pagination';
import type { StageKind } from './pipelineStore';

export interface DealRow {
  id: string;
  account_id: string;
  contact_id: string | null;
  title: string;
  amount: number;
  currency: string;
  pipeline_id: string;
  stage_id: string;
  won_at: Date | null;
  source_type: string | null;
  source_id: string | null;
  source_label: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A deal with the kind of its stage, which is its status. */
export interface DealView extends DealRow {
  status: StageKind;
}

export type DealFields = Partial<Omit<DealRow, 'id' | 'account_id' | 'created_at' | 'updated_at'>>;

export interface DealFilter {
  contactId?: string;
  status?: StageKind;
}

function deals(db: Knex, accountId: string): Knex.QueryBuilder {
  return db('crm_deals as d').join('crm_pipeline_stages as s', 's.id', 'd.stage_id').where('d.account_id', accountId);
}

export async function listDeals(db: Knex, accountId: string, filter: DealFilter, page: Page) {
  const filtered = () => {
    const q = deals(db, accountId);
    if (filter.contactId) q.where('d.contact_id', filter.contactId);
    if (filter.status) q.where('s.kind', filter.status);
    return q;
  };
  const [rows, [{ count }]] = await Promise.all([
    filtered()
      .select('d.*', 's.kind as status')
      .orderBy([
        { column: 'd.created_at', order: 'desc' },
        { column: 'd.id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)) as Promise<DealView[]>,
    filtered().count({ count: '*' }) as unknown as Promise<{ count: number }[]>,
  ]);
  return { rows, total: Number(count) };
}

export async function findDeal(db: Knex, accountId: string, id: string): Promise<DealView | undefined> {
  return deals(db, accountId).where('d.id', id).first('d.*', 's.kind as status');
}

export async function lockDeal(db: Knex, accountId: string, id: string): Promise<DealRow | undefined> {
  return db('crm_deals').where({ account_id: accountId, id }).forNoKeyUpdate().first();
}

export async function insertDeal(db: Knex, accountId: string, fields: DealFields): Promise<string> {
  const [row] = await db('crm_deals')
    .insert({ account_id: accountId, ...fields })
    .returning('id');
  return row.id;
}

export async function updateDeal(db: Knex, accountId: string, id: string, fields: DealFields): Promise<void> {
  await db('crm_deals')
    .where({ account_id: accountId, id })
    .update({ ...fields, updated_at: db.fn.now() });
}
