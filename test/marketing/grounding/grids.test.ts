import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { ABSENT_IDS, assertError, assertFieldError, createGrid } from './fixtures';

const RESULTS = [
  { metric: 'Hours on invoicing per week', before: 12, after: 2.5, unit: 'hours' },
  { metric: 'Days to get paid', before: 41, after: 9 },
  { metric: 'Late payments', before: -0.1234, after: 1234567890.5, unit: '%' },
];
const TESTIMONIALS = [
  { quote: '  We got paid in nine days. "Nine!"  \nIt changed the month.', attribution: 'Dana Ruiz, Ruiz Plumbing', consent: true },
  { quote: 'Support answered within the hour.', consent: false },
  { quote: 'Wish I had switched sooner.', attribution: 'A customer' },
];

const strip = <T extends { id: string }>(rows: T[]) => rows.map(({ id: _id, ...rest }) => rest);
const rowCount = async (table: string, gridId: string) =>
  Number((await harness().db(table).where({ grid_id: gridId }).count({ n: '*' }))[0].n);

describe('Before/after grids', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  it('creating a grid answers 201 with its results and testimonials in order, numbers as numbers and consent flags as sent (false when absent)', async () => {
    const res = await call('POST', '/api/marketing/before-after-grids', {
      token: acct.ownerToken,
      body: { name: 'Invoicing', description: 'Q3 pilot', results: RESULTS, testimonials: TESTIMONIALS },
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual([res.body.name, res.body.description], ['Invoicing', 'Q3 pilot']);
    assert.deepEqual(strip(res.body.results), [
      { metric: 'Hours on invoicing per week', before: 12, after: 2.5, unit: 'hours' },
      { metric: 'Days to get paid', before: 41, after: 9, unit: null },
      { metric: 'Late payments', before: -0.1234, after: 1234567890.5, unit: '%' },
    ]);
    assert.deepEqual(strip(res.body.testimonials), [
      { quote: 'We got paid in nine days. "Nine!"  \nIt changed the month.', attribution: 'Dana Ruiz, Ruiz Plumbing', consent: true },
      { quote: 'Support answered within the hour.', attribution: null, consent: false },
      { quote: 'Wish I had switched sooner.', attribution: 'A customer', consent: false },
    ]);
    const ids = [...res.body.results, ...res.body.testimonials].map((r: { id: string }) => r.id);
    assert.equal(new Set(ids).size, 6);
    const got = await call('GET', `/api/marketing/before-after-grids/${res.body.id}`, { token: acct.ownerToken });
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body, res.body);
  });

  it('a grid needs only a name; results and testimonials default to empty lists', async () => {
    const grid = await createGrid(acct.ownerToken, { name: 'Empty' });
    assert.deepEqual([grid.description, grid.results, grid.testimonials], [null, [], []]);
    assertFieldError(
      await call('POST', '/api/marketing/before-after-grids', { token: acct.ownerToken, body: { results: RESULTS } }),
      'body.name',
    );
  });

  it('bad rows are 400 naming the field and nothing is written', async () => {
    const before = Number((await harness().db('before_after_grids').where({ account_id: acct.accountId }).count({ n: '*' }))[0].n);
    const post = (body: Record<string, unknown>) =>
      call('POST', '/api/marketing/before-after-grids', { token: acct.ownerToken, body: { name: 'Bad', ...body } });
    assertFieldError(await post({ results: [{ metric: 'm', before: '12', after: 3 }] }), 'body.results.0.before');
    assertFieldError(await post({ results: [RESULTS[0], { metric: 'm', before: 1 }] }), 'body.results.1.after');
    assertFieldError(await post({ results: [{ metric: '', before: 1, after: 2 }] }), 'body.results.0.metric');
    assertFieldError(await post({ results: [{ metric: 'm', before: 1.23456, after: 2 }] }), 'body.results.0.before');
    assertFieldError(await post({ results: [{ metric: 'm', before: 1, after: 1e16 }] }), 'body.results.0.after');
    assertFieldError(await post({ results: [{ metric: 'm', before: 1, after: 1e-7 }] }), 'body.results.0.after');
    assertFieldError(await post({ results: [{ metric: 'm', before: 1, after: 2, id: ABSENT_IDS[0] }] }), 'body.results.0');
    assertFieldError(await post({ results: Array.from({ length: 51 }, () => RESULTS[1]) }), 'body.results');
    assertFieldError(await post({ testimonials: [{ quote: 'x'.repeat(601) }] }), 'body.testimonials.0.quote');
    assertFieldError(await post({ testimonials: [{ quote: 'ok', consent: 'yes' }] }), 'body.testimonials.0.consent');
    assertFieldError(await post({ testimonials: [{ attribution: 'no quote' }] }), 'body.testimonials.0.quote');
    assertFieldError(await post({ testimonials: [{ quote: 'ok', source: 'call' }] }), 'body.testimonials.0');
    const after = Number((await harness().db('before_after_grids').where({ account_id: acct.accountId }).count({ n: '*' }))[0].n);
    assert.equal(after, before);
  });

  it('PATCH results replaces the list in the order sent, keeping the ids of rows sent with their id; testimonials not sent stay', async () => {
    const grid = await createGrid(acct.ownerToken, { results: RESULTS, testimonials: TESTIMONIALS });
    const [first, , third] = grid.results;
    const res = await call('PATCH', `/api/marketing/before-after-grids/${grid.id}`, {
      token: acct.ownerToken,
      body: {
        results: [
          { ...third, after: 2 },
          { metric: 'New metric', before: 0, after: 100, unit: 'leads' },
          { id: first.id, metric: first.metric, before: 11, after: 2.5 },
        ],
      },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.results.map((r: { id: string }) => r.id).filter((id: string) => id === third.id || id === first.id),
      [third.id, first.id],
    );
    assert.deepEqual(strip(res.body.results), [
      { metric: 'Late payments', before: -0.1234, after: 2, unit: '%' },
      { metric: 'New metric', before: 0, after: 100, unit: 'leads' },
      { metric: 'Hours on invoicing per week', before: 11, after: 2.5, unit: null },
    ]);
    assert.ok(![first.id, third.id, grid.results[1].id].includes(res.body.results[1].id));
    assert.deepEqual(res.body.testimonials, grid.testimonials);
    assert.equal(await rowCount('before_after_results', grid.id), 3);
    assert.ok(Date.parse(res.body.updated_at) > Date.parse(grid.updated_at));
  });

  it('PATCH testimonials round-trips consent flags and keeps ids; [] empties a list', async () => {
    const grid = await createGrid(acct.ownerToken, { results: RESULTS, testimonials: TESTIMONIALS });
    const [withConsent, without] = grid.testimonials;
    const res = await call('PATCH', `/api/marketing/before-after-grids/${grid.id}`, {
      token: acct.ownerToken,
      body: {
        testimonials: [
          { ...without, consent: true },
          { ...withConsent, consent: false },
        ],
        results: [],
      },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.testimonials, [
      { ...without, consent: true },
      { ...withConsent, consent: false },
    ]);
    assert.deepEqual(res.body.results, []);
    const got = await call('GET', `/api/marketing/before-after-grids/${grid.id}`, { token: acct.ownerToken });
    assert.deepEqual(got.body, res.body);
    assert.equal(await rowCount('before_after_testimonials', grid.id), 2);
  });

  it("a row id that is not one of this grid's rows is 400 invalid_reference naming it, and nothing changes", async () => {
    const grid = await createGrid(acct.ownerToken, { name: 'Mine', results: RESULTS, testimonials: TESTIMONIALS });
    const otherGrid = await createGrid(acct.ownerToken, { results: RESULTS, testimonials: TESTIMONIALS });
    const theirGrid = await createGrid(other.ownerToken, { results: RESULTS, testimonials: TESTIMONIALS });
    for (const foreign of [otherGrid.results[0].id, theirGrid.results[0].id, ABSENT_IDS[0]]) {
      const res = await call('PATCH', `/api/marketing/before-after-grids/${grid.id}`, {
        token: acct.ownerToken,
        body: { name: 'Changed', results: [grid.results[0], { ...RESULTS[1], id: foreign }] },
      });
      assertFieldError(res, 'body.results.1.id', 'invalid_reference');
      assert.equal(res.body.field, 'results.1.id');
    }
    const badTestimonial = await call('PATCH', `/api/marketing/before-after-grids/${grid.id}`, {
      token: acct.ownerToken,
      body: { testimonials: [{ ...TESTIMONIALS[0], id: grid.results[0].id }] },
    });
    assertFieldError(badTestimonial, 'body.testimonials.0.id', 'invalid_reference');
    const repeated = await call('PATCH', `/api/marketing/before-after-grids/${grid.id}`, {
      token: acct.ownerToken,
      body: { testimonials: [grid.testimonials[0], grid.testimonials[0]] },
    });
    assertFieldError(repeated, 'body.testimonials.1.id');
    assertFieldError(
      await call('PATCH', `/api/marketing/before-after-grids/${grid.id}`, {
        token: acct.ownerToken,
        body: { results: [{ id: 'r1', ...RESULTS[0] }] },
      }),
      'body.results.0.id',
    );
    const got = await call('GET', `/api/marketing/before-after-grids/${grid.id}`, { token: acct.ownerToken });
    assert.deepEqual(got.body, grid);
  });

  it('PATCH name and description alone leaves the rows', async () => {
    const grid = await createGrid(acct.ownerToken, { description: 'Old', results: RESULTS });
    const res = await call('PATCH', `/api/marketing/before-after-grids/${grid.id}`, {
      token: acct.ownerToken,
      body: { name: 'Renamed', description: '' },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.name, res.body.description, res.body.results], ['Renamed', null, grid.results]);
    const empty = await call('PATCH', `/api/marketing/before-after-grids/${grid.id}`, { token: acct.ownerToken, body: {} });
    assert.deepEqual(empty.body, res.body);
  });

  it('DELETE answers 204 and removes the grid with its rows', async () => {
    const grid = await createGrid(acct.ownerToken, { results: RESULTS, testimonials: TESTIMONIALS });
    assert.equal((await call('DELETE', `/api/marketing/before-after-grids/${grid.id}`, { token: acct.ownerToken })).status, 204);
    assertError(await call('GET', `/api/marketing/before-after-grids/${grid.id}`, { token: acct.ownerToken }), 404, 'grid_not_found');
    assert.deepEqual([await rowCount('before_after_results', grid.id), await rowCount('before_after_testimonials', grid.id)], [0, 0]);
  });

  it('a grid of another account, a missing id or a malformed id answers 404 grid_not_found on get, update and delete', async () => {
    const theirs = await createGrid(other.ownerToken, { name: 'Theirs', results: RESULTS });
    for (const id of [theirs.id, ...ABSENT_IDS]) {
      assertError(await call('GET', `/api/marketing/before-after-grids/${id}`, { token: acct.ownerToken }), 404, 'grid_not_found');
      assertError(
        await call('PATCH', `/api/marketing/before-after-grids/${id}`, { token: acct.ownerToken, body: { results: [] } }),
        404,
        'grid_not_found',
      );
      assertError(await call('DELETE', `/api/marketing/before-after-grids/${id}`, { token: acct.ownerToken }), 404, 'grid_not_found');
    }
    const still = await call('GET', `/api/marketing/before-after-grids/${theirs.id}`, { token: other.ownerToken });
    assert.deepEqual([still.body.name, still.body.results.length], ['Theirs', 3]);
  });

  it('lists grids newest first with their rows as { data, total, page, limit }', async () => {
    const acctL = await newAccount();
    await createGrid(acctL.ownerToken, { name: 'Older', results: [RESULTS[0]] });
    await createGrid(acctL.ownerToken, { name: 'Newer', testimonials: [TESTIMONIALS[0]] });
    const res = await call('GET', '/api/marketing/before-after-grids', { token: acctL.ownerToken });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.data.map((g: { name: string }) => g.name),
      ['Newer', 'Older'],
    );
    assert.deepEqual([res.body.total, res.body.page, res.body.limit], [2, 1, 25]);
    assert.deepEqual([res.body.data[0].testimonials.length, res.body.data[0].results.length, res.body.data[1].results.length], [1, 0, 1]);
    const searched = await call('GET', '/api/marketing/before-after-grids?search=OLD', { token: acctL.ownerToken });
    assert.deepEqual(
      searched.body.data.map((g: { name: string }) => g.name),
      ['Older'],
    );
  });
});
