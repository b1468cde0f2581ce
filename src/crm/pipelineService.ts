import type { Knex } from '../db/knex';
import * as contactStore from './contactStore';
import { invalidReference } from '../http/fieldErrors';
import * as store from './pipelineStore';
import type { PipelineRow, StageKind, StageRow } from './pipelineStore';

export type { PipelineRow, StageKind, StageRow };

export const DEFAULT_PIPELINE_NAME = 'Sales';

/** The stages every account starts with, in board order (positions from 1). */
export const DEFAULT_STAGES: Array<{ name: string; position: number; kind: StageKind }> = [
  { name: 'Lead', position: 1, kind: 'open' },
  { name: 'Qualified', position: 2, kind: 'open' },
  { name: 'Proposal', position: 3, kind: 'open' },
  { name: 'Negotiation', position: 4, kind: 'open' },
  { name: 'Won', position: 5, kind: 'won' },
  { name: 'Lost', position: 6, kind: 'lost' },
];

/**
 * The account's default pipeline, created with its stages on first use. Race-safe: the insert is
 * `on conflict do nothing` on a unique index, so a concurrent first use waits for the winner and reads its rows.
 */
export async function defaultPipeline(db: Knex, accountId: string): Promise<PipelineRow> {
  const existing = await store.findDefaultPipeline(db, accountId);
  if (existing) return existing;
  return db.transaction(async (trx) => {
    const created = await store.insertDefaultPipeline(trx, accountId, DEFAULT_PIPELINE_NAME);
    if (!created) return (await store.findDefaultPipeline(trx, accountId))!;
    await store.insertStages(trx, accountId, created.id, DEFAULT_STAGES);
    return created;
  });
}

export async function listStages(db: Knex, accountId: string) {
  const pipeline = await defaultPipeline(db, accountId);
  return store.listStagesWithCounts(db, accountId, pipeline.id);
}

/** Moves a contact to a stage (it leaves any other stage of that pipeline). Ids of another account are 400 invalid_reference. */
export async function moveContact(db: Knex, accountId: string, move: { contactId: string; stageId: string }) {
  return db.transaction(async (trx) => {
    if (!(await contactStore.lockContact(trx, accountId, move.contactId))) throw invalidReference('contactId', 'contact');
    const stage = await store.lockStage(trx, accountId, move.stageId);
    if (!stage) throw invalidReference('stageId', 'pipeline stage');
    return store.placeContact(trx, accountId, { contactId: move.contactId, pipelineId: stage.pipeline_id, stageId: stage.id });
  });
}

/** A stage of the account for a write that references it (a deal), locked for the caller's transaction. */
export async function referencedStage(db: Knex, accountId: string, stageId: string): Promise<StageRow> {
  const stage = await store.lockStage(db, accountId, stageId);
  if (!stage) throw invalidReference('stageId', 'pipeline stage');
  return stage;
}

/** Where a new deal starts when no stage is given: the first open stage of the default pipeline. */
export async function entryStage(db: Knex, accountId: string): Promise<StageRow> {
  const pipeline = await defaultPipeline(db, accountId);
  return (await store.firstOpenStage(db, accountId, pipeline.id))!;
}
