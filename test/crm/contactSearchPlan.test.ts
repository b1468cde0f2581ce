import assert from 'node:assert/strict';
import { newAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { contactCountQuery, contactPageQuery, filteredPageWithTotalQuery } from '../../src/crm/contactStore';

/** The plan of the exact SQL the contact list runs, as text. */
async function plan(sql: string): Promise<string> {
  const result = await harness().db.raw(`explain ${sql}`);
  return result.rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
}

describe('CRM contact search query plans', () => {
  let accountId: string;
  before(async function () {
    this.timeout(60_000);
    accountId = (await newAccount('Plan Co')).accountId;
    const { db } = harness();
    await db.raw(
      `insert into crm_contacts (account_id, name, email, tags, created_at)
       select ?, 'Person ' || md5(g::text), 'user' || g || '@' || substr(md5((g * 7)::text), 1, 10) || '.example',
              array['tag' || (g % 200)], now() - make_interval(secs => g)
       from generate_series(1, 20000) g`,
      [accountId],
    );
    // VACUUM ANALYZE, not ANALYZE alone: rows inserted after a GIN index was built wait in its pending list, which
    // makes the index look costly to the planner until a vacuum merges them — autovacuum does that in production.
    await db.raw('vacuum analyze crm_contacts');
  });

  it('a substring search of 3+ characters uses the trigram index of name and email', async () => {
    const { db } = harness();
    const filter = { search: 'A3F9E' };
    const listPlan = await plan(filteredPageWithTotalQuery(db, accountId, filter, { page: 1, limit: 25 }).toString());
    const pagePlan = await plan(contactPageQuery(db, accountId, filter, { page: 1, limit: 25 }).toString());
    for (const p of [listPlan, pagePlan]) {
      assert.match(p, /Bitmap Index Scan on crm_contacts_account_search_trgm/, p);
      assert.doesNotMatch(p, /Seq Scan/, p);
    }
  });

  it('a common search term (user19: 1,111 of 20,000 contacts) still counts through the trigram index, not a sequential scan', async () => {
    const { db } = harness();
    const p = await plan(filteredPageWithTotalQuery(db, accountId, { search: 'user19' }, { page: 1, limit: 25 }).toString());
    assert.match(p, /Bitmap Index Scan on crm_contacts_account_search_trgm/, p);
    assert.doesNotMatch(p, /Seq Scan/, p);
  });

  it('a 1–2 character search is a prefix match on the text_pattern_ops indexes', async () => {
    const { db } = harness();
    const p = await plan(contactCountQuery(db, accountId, { search: 'q7' }).toString());
    assert.match(p, /crm_contacts_account_name_prefix/, p);
    assert.match(p, /crm_contacts_account_email_unique/, p);
    assert.doesNotMatch(p, /Seq Scan/, p);
  });

  it('the tag filter uses the tags GIN index', async () => {
    const { db } = harness();
    const p = await plan(contactCountQuery(db, accountId, { tag: 'tag17' }).toString());
    assert.match(p, /Bitmap Index Scan on crm_contacts_account_tags/, p);
    assert.doesNotMatch(p, /Seq Scan/, p);
  });
});
