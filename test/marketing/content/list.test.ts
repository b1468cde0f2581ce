import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { assertFieldError, createItem, insertAvatar, insertCategory, insertGrid, insertJourney } from './fixtures';

const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((i) => i.id);

describe('content list', () => {
  let acct: TestAccount;
  let other: TestAccount;
  const items: Record<string, { id: string }> = {};
  let refs: { avatar: string; journey: string; grid: string; category: string };

  const list = (qs: string) => call('GET', `/api/marketing/content${qs}`, { token: acct.ownerToken });
  const agentList = (qs: string) => call('GET', `/api/agent/marketing/content${qs}`, { token: acct.agentKey });

  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
    const [avatar, journey, grid, category] = await Promise.all([
      insertAvatar(acct.accountId),
      insertJourney(acct.accountId),
      insertGrid(acct.accountId),
      insertCategory(acct.accountId),
    ]);
    refs = { avatar: avatar.id, journey: journey.id, grid: grid.id, category: category.id };
    // Created in this order; updated_at then moved so the order by update differs from the order by publish.
    items.draft = await createItem(acct.ownerToken, {
      title: 'Plumbing pricing guide',
      tags: ['pricing', 'guide'],
      target_keyword: 'plumber pricing',
    });
    items.study = await createItem(acct.ownerToken, {
      title: 'Case study: Acme',
      content_type: 'case_study',
      status: 'published',
      before_after_grid_id: grid.id,
      tags: ['guide'],
    });
    items.grounded = await createItem(acct.ownerToken, {
      title: 'Awareness post',
      avatar_id: avatar.id,
      journey_id: journey.id,
      journey_stage: 'Awareness',
      category_id: category.id,
      status: 'published',
    });
    items.old = await createItem(acct.ownerToken, { title: 'Old news', status: 'published' });
    const { db } = harness();
    const at = (iso: string) => new Date(iso);
    await db('content_items')
      .where({ id: items.study.id })
      .update({ published_at: at('2026-10-01T00:00:00Z'), updated_at: at('2026-11-01T00:00:00Z') });
    await db('content_items')
      .where({ id: items.grounded.id })
      .update({ published_at: at('2026-10-20T00:00:00Z'), updated_at: at('2026-10-02T00:00:00Z') });
    await db('content_items')
      .where({ id: items.old.id })
      .update({ published_at: at('2026-06-01T00:00:00Z'), updated_at: at('2026-11-05T00:00:00Z') });
    await db('content_items')
      .where({ id: items.draft.id })
      .update({ updated_at: at('2026-10-10T00:00:00Z') });
    await createItem(other.ownerToken, { title: 'Plumbing pricing of another account', status: 'published' });
  });

  it('lists the account items by updated_at descending with a total, never another account', async () => {
    const res = await list('');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(ids(res), [items.old.id, items.study.id, items.draft.id, items.grounded.id]);
    assert.equal(res.body.total, 4);
    assert.equal(res.body.page, 1);
    assert.equal(res.body.limit, 25);
  });

  it('pages with page and limit; total counts every match', async () => {
    const first = await list('?limit=3');
    const second = await list('?limit=3&page=2');
    assert.equal(first.body.data.length, 3);
    assert.deepEqual(ids(second), [items.grounded.id]);
    assert.equal(second.body.total, 4);
    assertFieldError(await list('?limit=101'), 'query.limit');
    assertFieldError(await list('?page=0'), 'query.page');
  });

  it('a filtered list pages in order with its total, and a page past the end is empty with the total kept', async () => {
    const first = await list('?status=published&limit=2');
    assert.deepEqual(ids(first), [items.old.id, items.study.id]);
    assert.equal(first.body.total, 3);
    const second = await list('?status=published&limit=2&page=2');
    assert.deepEqual(ids(second), [items.grounded.id]);
    assert.equal(second.body.total, 3);
    const past = await list('?status=published&limit=2&page=5');
    assert.deepEqual(ids(past), []);
    assert.equal(past.body.total, 3);
    const byPublished = await agentList('?status=published&sort=published');
    assert.deepEqual(ids(byPublished), [items.grounded.id, items.study.id, items.old.id]);
  });

  it('filters by status, content_type, category_id, tags and search', async () => {
    assert.deepEqual(ids(await list('?status=draft')), [items.draft.id]);
    assert.deepEqual(ids(await list('?content_type=case_study')), [items.study.id]);
    assert.deepEqual(ids(await list(`?category_id=${refs.category}`)), [items.grounded.id]);
    assert.deepEqual(ids(await list('?tags=guide')), [items.study.id, items.draft.id]);
    assert.deepEqual(ids(await list('?tags=guide,pricing')), [items.draft.id]);
    assert.deepEqual(ids(await list('?search=PRICING')), [items.draft.id]);
    assert.deepEqual(ids(await list('?search=plumber%20pricing')), [items.draft.id]);
    assert.deepEqual(ids(await list('?status=published&tags=guide')), [items.study.id]);
    assert.equal((await list('?search=%25')).body.total, 0);
  });

  it('a non-uuid category_id filter is 400', async () => {
    assertFieldError(await list('?category_id=abc'), 'query.category_id');
  });

  it('the agent twin filters by avatar_id, journey_id and before_after_grid_id', async () => {
    assert.deepEqual(ids(await agentList(`?avatar_id=${refs.avatar}`)), [items.grounded.id]);
    assert.deepEqual(ids(await agentList(`?journey_id=${refs.journey}`)), [items.grounded.id]);
    assert.deepEqual(ids(await agentList(`?before_after_grid_id=${refs.grid}`)), [items.study.id]);
  });

  it('a non-uuid avatar_id, journey_id or before_after_grid_id filter is 400', async () => {
    for (const key of ['avatar_id', 'journey_id', 'before_after_grid_id'])
      assertFieldError(await agentList(`?${key}=nope`), `query.${key}`);
  });

  it('journey_stage matches case-insensitively but exactly', async () => {
    assert.deepEqual(ids(await agentList('?journey_stage=awareness')), [items.grounded.id]);
    assert.deepEqual(ids(await agentList('?journey_stage=AWARENESS')), [items.grounded.id]);
    assert.deepEqual(ids(await agentList('?journey_stage=aware')), []);
  });

  it('published_since keeps items published at or after it, and an invalid one is 400', async () => {
    assert.deepEqual(ids(await agentList('?published_since=2026-10-01')), [items.study.id, items.grounded.id]);
    assert.deepEqual(ids(await agentList('?published_since=2026-10-15T00:00:00Z')), [items.grounded.id]);
    assertFieldError(await agentList('?published_since=yesterday'), 'query.published_since');
    assertFieldError(await agentList('?published_since=2026-13-01'), 'query.published_since');
  });

  it('sort=published orders by published_at descending with never-published items last; sort=updated is the default', async () => {
    assert.deepEqual(ids(await agentList('?sort=published')), [items.grounded.id, items.study.id, items.old.id, items.draft.id]);
    assert.deepEqual(ids(await agentList('?sort=updated')), ids(await agentList('')));
    assert.deepEqual(ids(await agentList('')), [items.old.id, items.study.id, items.draft.id, items.grounded.id]);
    assertFieldError(await agentList('?sort=title'), 'query.sort');
  });

  it('the dashboard list does not take the agent-only filters', async () => {
    assertFieldError(await list(`?avatar_id=${refs.avatar}`), 'query');
  });

  it('list items carry the five grounding fields, the three objects and url', async () => {
    const grounded = (await agentList(`?avatar_id=${refs.avatar}`)).body.data[0];
    assert.equal(grounded.journey_stage, 'Awareness');
    assert.equal(grounded.customer_avatar.id, refs.avatar);
    assert.equal(grounded.customer_journey.id, refs.journey);
    assert.equal(grounded.before_after_grid, null);
    assert.equal(grounded.url, null);
    assert.equal(grounded.target_keyword, null);
  });
});
