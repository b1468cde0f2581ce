import type { Knex } from '../db/knex';
import * as contactStore from './contactStore';
import { dealNotFound } from './errors';
import { invalidReference } from '../http/fieldErrors';
import { isUuid } from '../http/ids';
import type { Page } from '../http/pagination';
import { entryStage, referencedStage } from './pipelineService';
import type { StageRow } from './pipelineStore';
import * as store from './dealStore';
import type { DealFields, DealFilter, DealView } from './dealStore';

export type { DealView };

export interface DealInput {
  title?: string;
  contactId?: string | null;
  amount?: number;
  currency?: string;
  stageId?: string;
  sourceType?: string | null;
  sourceId?: string | null;
  sourceLabel?: string | null;
}

function columns(input: DealInput): DealFields {
  const map: Array<[keyof DealInput, keyof DealFields]> = [
    ['title', 'title'],
    ['contactId', 'contact_id'],
    ['amount', 'amount'],
    ['currency', 'currency'],
    ['sourceType', 'source_type'],
    ['sourceId', 'source_id'],
    ['sourceLabel', 'source_label'],
  ];
  const fields: Record<string, unknown> = {};
  for (const [from, to] of map) if (input[from] !== undefined) fields[to] = input[from];
  return fields as DealFields;
}

/** Entering a won stage stamps won_at (kept while the deal moves between won stages); leaving it clears won_at. */
function wonAt(stage: StageRow, previous: { kind: string; wonAt: Date | null } | null): Date | null {
  if (stage.kind !== 'won') return null;
  return previous?.kind === 'won' && previous.wonAt ? previous.wonAt : new Date();
}

async function checkContact(trx: Knex, accountId: string, contactId: string | null | undefined): Promise<void> {
  if (contactId && !(await contactStore.lockContact(trx, accountId, contactId))) throw invalidReference('contactId', 'contact');
}

export async function listDeals(db: Knex, accountId: string, filter: DealFilter, page: Page) {
  return store.listDeals(db, accountId, filter, page);
}

export async function getDeal(db: Knex, accountId: string, id: string): Promise<DealView> {
  const deal = isUuid(id) ? await store.findDeal(db, accountId, id) : undefined;
  if (!deal) throw dealNotFound();
  return deal;
}

/** A new deal, in `stageId` or else the first open stage of the default pipeline. */
export async function createDeal(db: Knex, accountId: string, input: DealInput & { title: string; currency: string }): Promise<DealView> {
  return db.transaction(async (trx) => {
    await checkContact(trx, accountId, input.contactId);
    const stage = input.stageId ? await referencedStage(trx, accountId, input.stageId) : await entryStage(trx, accountId);
    const id = await store.insertDeal(trx, accountId, {
      ...columns(input),
      pipeline_id: stage.pipeline_id,
      stage_id: stage.id,
      won_at: wonAt(stage, null),
    });
    return (await store.findDeal(trx, accountId, id))!;
  });
}

export async function updateDeal(db: Knex, accountId: string, id: string, input: DealInput): Promise<DealView> {
  if (!isUuid(id)) throw dealNotFound();
  return db.transaction(async (trx) => {
    const current = await store.lockDeal(trx, accountId, id);
    if (!current) throw dealNotFound();
    await checkContact(trx, accountId, input.contactId);
    const fields = columns(input);
    if (input.stageId && input.stageId !== current.stage_id) {
      const previous = (await store.findDeal(trx, accountId, id))!;
      const stage = await referencedStage(trx, accountId, input.stageId);
      Object.assign(fields, {
        pipeline_id: stage.pipeline_id,
        stage_id: stage.id,
        won_at: wonAt(stage, { kind: previous.status, wonAt: current.won_at }),
      });
    }
    if (Object.keys(fields).length > 0) await store.updateDeal(trx, accountId, id, fields);
    return (await store.findDeal(trx, accountId, id))!;
  });
}
