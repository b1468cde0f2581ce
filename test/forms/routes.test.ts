import assert from 'node:assert/strict';
import { newAccount, newAgentKey, type TestAccount } from '../helpers/accounts';
import { call } from '../helpers/http';
import { deliveryPayload, record } from './fixtures';

const LIST = '/api/forms/submissions';
const at = (day: number) => new Date(Date.UTC(2026, 10, day, 9)).toISOString();

describe('forms ledger routes: GET /api/forms/submissions, GET|DELETE /api/forms/submissions/{id}', () => {
  let owner: TestAccount;
  let other: TestAccount;
  const ids: Record<string, string> = {};

  before(async () => {
    owner = await newAccount();
    other = await newAccount();
    const seed = async (name: string, payload: Record<string, unknown>, historical = false) => {
      const outcome = await record(owner.accountId, payload, { historical });
      if (outcome.kind !== 'recorded') throw new Error('not recorded');
      ids[name] = outcome.id;
    };
    await seed('contact1', deliveryPayload({ submittedAt: at(1), data: { Email: 'one@example.test' } }));
    await seed('contact2', deliveryPayload({ submittedAt: at(2), data: { Email: 'ONE@example.test' } })); // exactly 24 h later: outside the window
    await seed('quote', deliveryPayload({ name: 'Quote', submittedAt: at(3), data: { Email: 'two@example.test' } }));
    await seed('spam', deliveryPayload({ submittedAt: at(4), data: { Email: 'bot@example.test', honeypot: 'x' } }));
    await seed(
      'dup',
      deliveryPayload({
        name: 'Quote',
        submittedAt: new Date(Date.parse(at(3)) + 3600_000).toISOString(),
        data: { Email: 'two@example.test' },
      }),
    );
    await seed('old', deliveryPayload({ submittedAt: at(5), data: { Email: 'old@example.test' } }), true);
    await record(other.accountId, deliveryPayload({ submittedAt: at(1) }));
  });

  const list = async (query = '', token = owner.ownerToken) => call('GET', `${LIST}${query}`, { token });

  it('lists the account’s live rows newest first with total, page and limit; another account’s rows never show', async () => {
    const res = await list();
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.total, res.body.page, res.body.limit], [6, 1, 25]);
    assert.deepEqual(
      res.body.data.map((r: any) => r.id),
      [ids.old, ids.spam, ids.dup, ids.quote, ids.contact2, ids.contact1],
    );
    const row = res.body.data.find((r: any) => r.id === ids.quote);
    assert.deepEqual(
      [row.source, row.form_label, row.page_path, row.email, row.site_id],
      ['platform', 'Quote', '/', 'two@example.test', 'site_forms'],
    );
  });

  it('filters: form_label, spam, duplicate, historical, email (case-insensitive), since/until', async () => {
    const idsOf = async (q: string) => (await list(q)).body.data.map((r: any) => r.id);
    assert.deepEqual(await idsOf('?form_label=Quote'), [ids.dup, ids.quote]);
    assert.deepEqual(await idsOf('?spam=true'), [ids.spam]);
    assert.equal((await idsOf('?spam=false')).includes(ids.spam), false);
    assert.deepEqual(await idsOf('?duplicate=true'), [ids.dup]);
    assert.deepEqual(await idsOf('?historical=true'), [ids.old]);
    assert.deepEqual(await idsOf('?email=one%40EXAMPLE.test'), [ids.contact2, ids.contact1]);
    assert.deepEqual(await idsOf(`?since=${encodeURIComponent(at(2))}&until=${encodeURIComponent(at(3))}`), [ids.contact2]);
    assert.deepEqual(await idsOf('?source=platform&form_label=Quote&duplicate=false'), [ids.quote]);
  });

  it('paging: page 2 of limit 4 holds the rest; the total counts every page', async () => {
    const res = await list('?limit=4&page=2');
    assert.deepEqual([res.body.total, res.body.page, res.body.limit, res.body.data.length], [6, 2, 4, 2]);
    assert.deepEqual(
      res.body.data.map((r: any) => r.id),
      [ids.contact2, ids.contact1],
    );
  });

  it('validation: bad booleans, dates, limits, sources and unknown parameters are 400 validation_failed naming the parameter', async () => {
    for (const [query, field] of [
      ['?spam=yes', 'spam'],
      ['?since=yesterday', 'since'],
      ['?until=2026-11-01', 'until'],
      ['?limit=101', 'limit'],
      ['?page=0', 'page'],
      ['?source=shop', 'source'],
      ['?color=red', ''],
    ]) {
      const res = await list(query);
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assert.equal(res.body.code, 'validation_failed');
      if (field) assert.ok(JSON.stringify(res.body.errors).includes(field), `${query} names ${field}: ${res.text}`);
    }
  });

  it('GET by id answers the row with its raw payload; another account’s id, an unknown and a malformed id are 404', async () => {
    const res = await call('GET', `${LIST}/${ids.quote}`, { token: owner.ownerToken });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.raw_payload.name, 'Quote');
    for (const [id, token] of [
      [ids.quote, other.ownerToken],
      ['00000000-0000-4000-8000-000000000000', owner.ownerToken],
      ['not-a-uuid', owner.ownerToken],
    ]) {
      const miss = await call('GET', `${LIST}/${id}`, { token });
      assert.deepEqual([miss.status, miss.body.code], [404, 'form_submission_not_found']);
    }
  });

  it('soft delete: 204, gone from the list, still readable and listed with include_deleted; another account’s delete is 404', async () => {
    const foreign = await call('DELETE', `${LIST}/${ids.contact1}`, { token: other.ownerToken });
    assert.deepEqual([foreign.status, foreign.body.code], [404, 'form_submission_not_found']);
    assert.equal((await call('GET', `${LIST}/${ids.contact1}`, { token: owner.ownerToken })).body.deleted_at, null, 'untouched');

    const res = await call('DELETE', `${LIST}/${ids.contact1}`, { token: owner.ownerToken });
    assert.equal(res.status, 204, res.text);
    assert.equal((await call('DELETE', `${LIST}/${ids.contact1}`, { token: owner.ownerToken })).status, 204, 'again: still 204');
    const listed = await list();
    assert.equal(listed.body.total, 5);
    assert.equal(
      listed.body.data.some((r: any) => r.id === ids.contact1),
      false,
    );
    const withDeleted = await list('?include_deleted=true');
    assert.equal(withDeleted.body.total, 6);
    const one = await call('GET', `${LIST}/${ids.contact1}`, { token: owner.ownerToken });
    assert.notEqual(one.body.deleted_at, null);
  });

  it('agent twin: crm:read lists, crm:write deletes; a key without crm:read is 403', async () => {
    const reader = await newAgentKey(owner.accountId, ['crm:read']);
    const res = await call('GET', `/api/agent/forms/submissions?form_label=Quote`, { token: reader });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.total, 2);
    const denied = await call('DELETE', `/api/agent/forms/submissions/${ids.quote}`, { token: reader });
    assert.equal(denied.status, 403, denied.text);
    const none = await newAgentKey(owner.accountId, ['projects:read']);
    assert.equal((await call('GET', '/api/agent/forms/submissions', { token: none })).status, 403);
    const writer = await newAgentKey(owner.accountId, ['crm:write']);
    assert.equal((await call('DELETE', `/api/agent/forms/submissions/${ids.spam}`, { token: writer })).status, 204);
  });

  it('a session is required: no token is 401', async () => {
    assert.equal((await call('GET', LIST)).status, 401);
  });
});
