import assert from 'node:assert/strict';
import { call } from '../helpers/http';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { assertFieldError, createContact, MISSING_ID } from './fixtures';

const path = (id: string) => `/api/crm/contacts/${id}/activities`;

describe('CRM contact activities', () => {
  let acct: TestAccount;
  let other: TestAccount;
  let contactId: string;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
    contactId = (await createContact(acct.ownerToken)).id;
  });

  it('adding a note answers 201 with the activity; kind defaults to note', async () => {
    const res = await call('POST', path(contactId), {
      token: acct.ownerToken,
      body: { body: 'Asked for a quote', metadata: { channel: 'phone' } },
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(
      {
        contactId: res.body.contactId,
        kind: res.body.kind,
        body: res.body.body,
        externalId: res.body.externalId,
        metadata: res.body.metadata,
        createdBy: res.body.createdBy,
      },
      { contactId, kind: 'note', body: 'Asked for a quote', externalId: null, metadata: { channel: 'phone' }, createdBy: acct.ownerId },
    );
    assert.ok(Math.abs(Date.parse(res.body.occurredAt) - Date.now()) < 60_000);
  });

  it('a repeated externalId writes nothing and answers 200 with the existing activity', async () => {
    const body = { kind: 'order', body: 'Order #1001', externalId: 'commerce:order:1001', occurredAt: '2026-11-01T10:00:00Z' };
    const first = await call('POST', path(contactId), { token: acct.ownerToken, body });
    assert.equal(first.status, 201, first.text);
    const again = await call('POST', path(contactId), { token: acct.ownerToken, body: { ...body, body: 'changed' } });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, first.body);
    const rows = await harness().db('crm_contact_activities').where({ account_id: acct.accountId, external_id: body.externalId });
    assert.equal(rows.length, 1);
  });

  it('concurrent adds with one externalId land once', async () => {
    const body = { kind: 'form_submission', body: 'Form', externalId: `form:${Date.now()}` };
    const results = await Promise.all(Array.from({ length: 5 }, () => call('POST', path(contactId), { token: acct.ownerToken, body })));
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 200, 200, 200, 201]);
    assert.equal(new Set(results.map((r) => r.body.id)).size, 1);
  });

  it('the same externalId in another account is a separate activity', async () => {
    const theirContact = await createContact(other.ownerToken);
    const res = await call('POST', path(theirContact.id), {
      token: other.ownerToken,
      body: { kind: 'order', externalId: 'commerce:order:1001' },
    });
    assert.equal(res.status, 201, res.text);
  });

  it('the timeline answers { data, total, page, limit }, newest occurrence first, and filters by kind', async () => {
    const c = (await createContact(acct.ownerToken)).id;
    for (const [kind, occurredAt] of [
      ['call', '2026-10-01T00:00:00Z'],
      ['note', '2026-10-03T00:00:00Z'],
      ['call', '2026-10-02T00:00:00Z'],
    ]) {
      assert.equal((await call('POST', path(c), { token: acct.ownerToken, body: { kind, body: 'x', occurredAt } })).status, 201);
    }
    const res = await call('GET', path(c), { token: acct.ownerToken });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['data', 'limit', 'page', 'total']);
    assert.deepEqual(
      res.body.data.map((a: { occurredAt: string }) => a.occurredAt),
      ['2026-10-03T00:00:00.000Z', '2026-10-02T00:00:00.000Z', '2026-10-01T00:00:00.000Z'],
    );
    assert.deepEqual([res.body.total, res.body.page, res.body.limit], [3, 1, 25]);
    const calls = await call('GET', `${path(c)}?kind=call&limit=1`, { token: acct.ownerToken });
    assert.deepEqual([calls.body.total, calls.body.data.length, calls.body.data[0].occurredAt], [2, 1, '2026-10-02T00:00:00.000Z']);
  });

  it('bad input is 400 naming the field: a note without body, a bad kind, occurredAt or metadata, unknown fields', async () => {
    const t = acct.ownerToken;
    assertFieldError(await call('POST', path(contactId), { token: t, body: { kind: 'note' } }), 'body.body');
    assertFieldError(await call('POST', path(contactId), { token: t, body: { kind: 'Big Kind', body: 'x' } }), 'body.kind');
    assertFieldError(await call('POST', path(contactId), { token: t, body: { body: 'x', occurredAt: 'yesterday' } }), 'body.occurredAt');
    assertFieldError(await call('POST', path(contactId), { token: t, body: { body: 'x', metadata: [1, 2] } }), 'body.metadata');
    assertFieldError(
      await call('POST', path(contactId), { token: t, body: { body: 'x', metadata: { blob: 'x'.repeat(20_000) } } }),
      'body.metadata',
    );
    const extra = await call('POST', path(contactId), { token: t, body: { body: 'x', author: 'me' } });
    assert.equal(extra.status, 400);
    assertFieldError(await call('GET', `${path(contactId)}?limit=0`, { token: t }), 'query.limit');
  });

  it('a contact of another account, a missing or a malformed id answers 404 contact_not_found, and nothing is written', async () => {
    const theirs = await createContact(other.ownerToken);
    for (const id of [theirs.id, MISSING_ID, 'bad-id']) {
      for (const method of ['GET', 'POST']) {
        const res = await call(method, path(id), { token: acct.ownerToken, body: method === 'POST' ? { body: 'sneaky' } : undefined });
        assert.equal(res.status, 404, `${method} ${id}: ${res.text}`);
        assert.equal(res.body.code, 'contact_not_found');
      }
    }
    assert.equal((await harness().db('crm_contact_activities').where({ contact_id: theirs.id })).length, 0);
  });

  it('deleting a contact deletes its activities', async () => {
    const c = (await createContact(acct.ownerToken)).id;
    await call('POST', path(c), { token: acct.ownerToken, body: { body: 'gone soon' } });
    await call('DELETE', `/api/crm/contacts/${c}`, { token: acct.ownerToken });
    assert.equal((await harness().db('crm_contact_activities').where({ contact_id: c })).length, 0);
  });
});
