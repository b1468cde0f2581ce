import type { Knex } from '../../db/knex';
import type { PackScope } from './types';

// The proof pack's SQL. Every query filters on the account; joins also match the account, so a stray foreign id
// can never bring another account's row in.

/** Bounds every later statement of the transaction (lock waits included). `ms` is a validated integer. */
export async function setStatementTimeout(trx: Knex.Transaction, ms: number): Promise<void> {
  // SET cannot take a bind parameter.
  await trx.raw(`set local statement_timeout = ${Math.trunc(ms)}`);
}

/**
 * The grids a pack draws from: the content item's grid; else the grids of the account's items written for the avatar
 * and/or journey stage asked for (grids carry neither); else every grid of the account.
 */
function gridIdsInScope(trx: Knex.Transaction, accountId: string, scope: PackScope): Knex.QueryBuilder {
  if (scope.gridId) return trx('before_after_grids').select('id').where({ account_id: accountId, id: scope.gridId });
  if (!scope.avatarId && !scope.journeyStage) return trx('before_after_grids').select('id').where('account_id', accountId);
  const items = trx('content_items').select('before_after_grid_id').where('account_id', accountId).whereNotNull('before_after_grid_id');
  if (scope.avatarId) items.where('avatar_id', scope.avatarId);
  if (scope.journeyStage) items.whereRaw('lower(journey_stage) = lower(?)', [scope.journeyStage]);
  return items;
}

export interface TestimonialRow {
  id: string;
  quote: string;
  attribution: string | null;
  consent: boolean;
  grid_name: string;
}

export async function selectTestimonials(trx: Knex.Transaction, accountId: string, scope: PackScope): Promise<TestimonialRow[]> {
  return trx('before_after_testimonials as t')
    .join('before_after_grids as g', (j) => j.on('g.id', 't.grid_id').andOn('g.account_id', 't.account_id'))
    .where('t.account_id', accountId)
    .whereIn('t.grid_id', gridIdsInScope(trx, accountId, scope))
    .select('t.id', 't.quote', 't.attribution', 't.consent', 'g.name as grid_name')
    .orderBy([{ column: 'g.created_at', order: 'desc' }, 't.position'])
    .limit(scope.limit);
}

export interface ResultRow {
  id: string;
  metric: string;
  before_value: string;
  after_value: string;
  unit: string | null;
  grid_name: string;
}

export async function selectResults(trx: Knex.Transaction, accountId: string, scope: PackScope): Promise<ResultRow[]> {
  return trx('before_after_results as r')
    .join('before_after_grids as g', (j) => j.on('g.id', 'r.grid_id').andOn('g.account_id', 'r.account_id'))
    .where('r.account_id', accountId)
    .whereIn('r.grid_id', gridIdsInScope(trx, accountId, scope))
    .select('r.id', 'r.metric', 'r.before_value', 'r.after_value', 'r.unit', 'g.name as grid_name')
    .orderBy([{ column: 'g.created_at', order: 'desc' }, 'r.position'])
    .limit(scope.limit);
}

export interface ActivityRow {
  id: string;
  /** Lowercased. */
  kind: string;
  body: string;
  contact_name: string | null;
}

/**
 * Activities of `kinds` (case-insensitive) with a body, newest first. One whose metadata names an `avatar_id` or a
 * `journey_stage` other than the one asked for is left out; untagged activities stay.
 */
export async function selectActivities(
  trx: Knex.Transaction,
  accountId: string,
  kinds: string[],
  scope: PackScope,
): Promise<ActivityRow[]> {
  const query = trx('crm_contact_activities as a')
    .join('crm_contacts as c', (j) => j.on('c.id', 'a.contact_id').andOn('c.account_id', 'a.account_id'))
    .where('a.account_id', accountId)
    .whereRaw('lower(a.kind) = any(?)', [kinds])
    .whereRaw("btrim(coalesce(a.body, '')) <> ''")
    .select('a.id', trx.raw('lower(a.kind) as kind'), 'a.body', 'c.name as contact_name')
    .orderBy([
      { column: 'a.occurred_at', order: 'desc' },
      { column: 'a.id', order: 'desc' },
    ])
    .limit(scope.limit * kinds.length);
  if (scope.avatarId) query.whereRaw("coalesce(a.metadata->>'avatar_id', ?) = ?", [scope.avatarId, scope.avatarId]);
  if (scope.journeyStage) {
    query.whereRaw("lower(coalesce(a.metadata->>'journey_stage', ?)) = lower(?)", [scope.journeyStage, scope.journeyStage]);
  }
  return query;
}

/** The account's contact names among `candidates` (lowercased), through the (account, lower(name)) index. */
export async function contactNamesAmong(trx: Knex.Transaction, accountId: string, candidates: string[]): Promise<string[]> {
  const rows: Array<{ name: string }> = await trx('crm_contacts')
    .distinct('name')
    .where('account_id', accountId)
    .whereRaw('lower(name) = any(?)', [candidates]);
  return rows.map((r) => r.name);
}
