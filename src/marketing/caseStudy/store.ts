import type { Knex } from '../../db/knex';
import type { TestimonialRow } from '../grounding/gridStore';

/** The account's oldest journey map with a stage named Decision (ignoring case), and its stages. */
export async function journeyWithDecision(
  db: Knex,
  accountId: string,
): Promise<{ id: string; stages: Array<{ name: string }> } | undefined> {
  return db('customer_journeys as j')
    .where('j.account_id', accountId)
    .whereRaw(`exists (select 1 from jsonb_array_elements(j.stages) s where lower(s->>'name') = 'decision')`)
    .orderBy([{ column: 'j.created_at' }, { column: 'j.id' }])
    .first('j.id', 'j.stages');
}

export async function findTestimonial(db: Knex, accountId: string, id: string): Promise<TestimonialRow | undefined> {
  return db('before_after_testimonials').where({ account_id: accountId, id }).first();
}

/** The id of the item a case-study run wrote (`settings.case_study.run_id`), if it wrote one. */
export async function itemIdOfRun(db: Knex, accountId: string, workflowId: string): Promise<string | undefined> {
  const row = await db('content_items')
    .where({ account_id: accountId })
    .whereRaw(`settings->'case_study'->>'run_id' = ?`, [workflowId])
    .first('id');
  return row?.id;
}

/**
 * The account's content slugs that start with `prefix` (letters, digits and hyphens only: no LIKE wildcards), read
 * under a transaction lock of the account's slugs so two saves do not pick the same free one.
 */
export async function slugsStartingWith(trx: Knex.Transaction, accountId: string, prefix: string): Promise<Set<string>> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`content-slugs:${accountId}`]);
  const rows: Array<{ slug: string }> = await trx('content_items')
    .where({ account_id: accountId })
    .where('slug', 'like', `${prefix}%`)
    .select('slug');
  return new Set(rows.map((r) => r.slug));
}
