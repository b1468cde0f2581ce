import type { Knex } from '../db/knex';

export type StageKind = 'open' | 'won' | 'lost';

export interface PipelineRow {
  id: string;
  account_id: string;
  name: string;
  is_default: boolean;
  created_at: Date;
}
export interface StageRow {
  id: string;
  account_id: string;
  pipeline_id: string;
  name: string;
  position: number;
  kind: StageKind;
  created_at: Date;
}
export interface StageWithCounts extends StageRow {
  contact_count: number;
  deal_count: number;
}
export interface ContactStageRow {
  account_id: string;
  contact_id: string;
  pipeline_id: string;
  stage_id: string;
  moved_at: Date;
}

export async function findDefaultPipeline(db: Knex, accountId: string): Promise<PipelineRow | undefined> {
  return db('crm_pipelines').where({ account_id: accountId, is_default: true }).first();
}

/** Inserts the account's default pipeline unless one exists; undefined when another writer got there first. */
export async function insertDefaultPipeline(db: Knex, accountId: string, name: string): Promise<PipelineRow | undefined> {
  const result = await db.raw(
    `insert into crm_pipelines (account_id, name, is_default) values (?, ?, true)
     on conflict (account_id) where is_default do nothing
     returning *`,
    [accountId, name],
  );
  return result.rows[0];
}

export async function insertStages(
  db: Knex,
  accountId: string,
  pipelineId: string,
  stages: Array<Pick<StageRow, 'name' | 'position' | 'kind'>>,
): Promise<void> {
  await db('crm_pipeline_stages').insert(stages.map((s) => ({ account_id: accountId, pipeline_id: pipelineId, ...s })));
}

export async function listStagesWithCounts(db: Knex, accountId: string, pipelineId: string): Promise<StageWithCounts[]> {
  const contacts = db('crm_contact_stages')
    .where({ account_id: accountId, pipeline_id: pipelineId })
    .select('stage_id')
    .count({ n: '*' })
    .groupBy('stage_id')
    .as('c');
  const deals = db('crm_deals')
    .where({ account_id: accountId, pipeline_id: pipelineId })
    .select('stage_id')
    .count({ n: '*' })
    .groupBy('stage_id')
    .as('d');
  return db('crm_pipeline_stages as s')
    .leftJoin(contacts, 'c.stage_id', 's.id')
    .leftJoin(deals, 'd.stage_id', 's.id')
    .where({ 's.account_id': accountId, 's.pipeline_id': pipelineId })
    .orderBy('s.position', 'asc')
    .select('s.*', db.raw('coalesce(c.n, 0)::int as contact_count'), db.raw('coalesce(d.n, 0)::int as deal_count'));
}

/** A stage of the account, locked against deletion for the rest of the transaction. */
export async function lockStage(db: Knex, accountId: string, id: string): Promise<StageRow | undefined> {
  return db('crm_pipeline_stages').where({ account_id: accountId, id }).forKeyShare().first();
}

export async function firstOpenStage(db: Knex, accountId: string, pipelineId: string): Promise<StageRow | undefined> {
  return db('crm_pipeline_stages').where({ account_id: accountId, pipeline_id: pipelineId, kind: 'open' }).orderBy('position').first();
}

/** Puts a contact in a stage; moving it to the stage it is already in keeps the original moved_at. */
export async function placeContact(
  db: Knex,
  accountId: string,
  p: { contactId: string; pipelineId: string; stageId: string },
): Promise<ContactStageRow> {
  const result = await db.raw(
    `insert into crm_contact_stages (account_id, contact_id, pipeline_id, stage_id) values (?, ?, ?, ?)
     on conflict (contact_id, pipeline_id) do update
       set stage_id = excluded.stage_id,
           moved_at = case when crm_contact_stages.stage_id = excluded.stage_id then crm_contact_stages.moved_at else now() end
     returning *`,
    [accountId, p.contactId, p.pipelineId, p.stageId],
  );
  return result.rows[0];
}
