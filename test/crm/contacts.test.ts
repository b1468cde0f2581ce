import assert from 'node:assert/strict';
import { call } from '../helpers/http';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { assertFieldError, createContact, MISSING_ID, uniqueEmail } from './fixtures';

describe('CRM contacts: create, update, delete', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  it('creating a contact answers 201 with every field, camelCase, and zeroed commerce rollups', async () => {
    const email = uniqueEmail('grace');
    const res = await call('POST', '/api/crm/contacts', {
      token: acct.ownerToken,
      body: {
        name: ' Grace Hopper ',
        email,
        company: 'Navy',
        phone: '+1 555 0100',
        tags: [' vip', 'vip', 'lead '],
        notes: 'met at a conference',
      },
    });
    assert.equal(res.status, 201, res.text);
    const c = res.body;
    assert.match(c.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(
      { name: c.name, email: c.email, company: c.company, phone: c.phone, tags: c.tags, notes: c.notes, source: c.source },
      {
        name: 'Grace Hopper',
        email,
        company: 'Navy',
        phone: '+1 555 0100',
        tags: ['vip', 'lead'],
        notes: 'met at a conference',
        source: 'api',
      },
    );
    assert.ok(!Number.isNaN(Date.parse(c.createdAt)));
    assert.deepEqual(
      [c.commerceTotalSpentCents, c.commerceOrderCount, c.commerceFirstOrderAt, c.commerceFirstOrderId, c.commerceLastOrderAt],
      [0, 0, null, null, null],
    );
  });

  it('a contact needs a name or an email: neither is 400 naming body.name', async () => {
    const res = await call('POST', '/api/crm/contacts', { token: acct.ownerToken, body: { company: 'Acme', name: '  ' } });
    assertFieldError(res, 'body.name');
  });

  it('a contact with only a name or only an email is accepted', async () => {
    const byName = await call('POST', '/api/crm/contacts', { token: acct.ownerToken, body: { name: 'Only Name' } });
    assert.equal(byName.status, 201, byName.text);
    assert.equal(byName.body.email, null);
    const byEmail = await call('POST', '/api/crm/contacts', { token: acct.ownerToken, body: { email: uniqueEmail() } });
    assert.equal(byEmail.status, 201, byEmail.text);
    assert.equal(byEmail.body.name, null);
  });

  it('a malformed email is 400 naming body.email', async () => {
    assertFieldError(await call('POST', '/api/crm/contacts', { token: acct.ownerToken, body: { email: 'not-an-email' } }), 'body.email');
  });

  it('over-long fields and bad tags are 400 naming the field', async () => {
    const t = acct.ownerToken;
    assertFieldError(await call('POST', '/api/crm/contacts', { token: t, body: { name: 'x'.repeat(201) } }), 'body.name');
    assertFieldError(await call('POST', '/api/crm/contacts', { token: t, body: { name: 'A', tags: 'vip' } }), 'body.tags');
    assertFieldError(await call('POST', '/api/crm/contacts', { token: t, body: { name: 'A', tags: [''] } }), 'body.tags.0');
    assertFieldError(
      await call('POST', '/api/crm/contacts', { token: t, body: { name: 'A', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) } }),
      'body.tags',
    );
  });

  it('an unknown body field is 400 and nothing is written', async () => {
    const email = uniqueEmail();
    const res = await call('POST', '/api/crm/contacts', { token: acct.ownerToken, body: { name: 'A', email, favouriteColour: 'blue' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_failed');
    assert.match(res.body.errors[0].message, /favouriteColour/);
    const list = await call('GET', `/api/crm/contacts?search=${encodeURIComponent(email)}`, { token: acct.ownerToken });
    assert.equal(list.body.total, 0);
  });

  it('an email already held by a contact of the account is 409 contact_email_taken, case-insensitively', async () => {
    const first = await createContact(acct.ownerToken);
    const res = await call('POST', '/api/crm/contacts', {
      token: acct.ownerToken,
      body: { name: 'Twin', email: first.email.toUpperCase() },
    });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.code, 'contact_email_taken');
    assert.equal(res.body.contactId, first.id);
  });

  it('the same email may exist in two accounts', async () => {
    const mine = await createContact(acct.ownerToken);
    const res = await call('POST', '/api/crm/contacts', { token: other.ownerToken, body: { email: mine.email } });
    assert.equal(res.status, 201, res.text);
  });

  it('PATCH changes only the fields sent; null clears an optional field', async () => {
    const c = await createContact(acct.ownerToken, { company: 'Old Co', phone: '123', tags: ['a'] });
    const res = await call('PATCH', `/api/crm/contacts/${c.id}`, {
      token: acct.ownerToken,
      body: { company: 'New Co', phone: null, tags: ['b', 'b'] },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.company, 'New Co');
    assert.equal(res.body.phone, null);
    assert.deepEqual(res.body.tags, ['b']);
    assert.equal(res.body.name, c.name);
    assert.equal(res.body.email, c.email);
    assert.equal(res.body.createdAt, c.createdAt);
  });

  it('PATCH with an empty body changes nothing and answers the contact', async () => {
    const c = await createContact(acct.ownerToken);
    const res = await call('PATCH', `/api/crm/contacts/${c.id}`, { token: acct.ownerToken, body: {} });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, c);
  });

  it('PATCH that would leave neither name nor email is 400 and changes nothing', async () => {
    const c = await createContact(acct.ownerToken, { company: 'Keep' });
    const res = await call('PATCH', `/api/crm/contacts/${c.id}`, { token: acct.ownerToken, body: { name: null, email: null } });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'validation_failed');
    const after = await call('PATCH', `/api/crm/contacts/${c.id}`, { token: acct.ownerToken, body: {} });
    assert.equal(after.body.name, c.name);
  });

  it('PATCH to an email another contact holds is 409 contact_email_taken', async () => {
    const [a, b] = [await createContact(acct.ownerToken), await createContact(acct.ownerToken)];
    const res = await call('PATCH', `/api/crm/contacts/${b.id}`, { token: acct.ownerToken, body: { email: a.email } });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.code, 'contact_email_taken');
  });

  it('PATCH with an unknown field or a bad email is 400 naming the field', async () => {
    const c = await createContact(acct.ownerToken);
    const unknown = await call('PATCH', `/api/crm/contacts/${c.id}`, {
      token: acct.ownerToken,
      body: { createdAt: '2020-01-01T00:00:00Z' },
    });
    assert.equal(unknown.status, 400);
    assertFieldError(await call('PATCH', `/api/crm/contacts/${c.id}`, { token: acct.ownerToken, body: { email: 'nope' } }), 'body.email');
  });

  it('DELETE answers 204 and the contact is gone', async () => {
    const c = await createContact(acct.ownerToken);
    const res = await call('DELETE', `/api/crm/contacts/${c.id}`, { token: acct.ownerToken });
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    const again = await call('DELETE', `/api/crm/contacts/${c.id}`, { token: acct.ownerToken });
    assert.equal(again.status, 404);
    assert.equal(again.body.code, 'contact_not_found');
  });

  it('a contact of another account answers 404 to PATCH and DELETE and is not changed', async () => {
    const theirs = await createContact(other.ownerToken, { company: 'Theirs' });
    for (const [method, body] of [
      ['PATCH', { company: 'Mine now' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, `/api/crm/contacts/${theirs.id}`, { token: acct.ownerToken, body });
      assert.equal(res.status, 404, `${method}: ${res.text}`);
      assert.equal(res.body.code, 'contact_not_found');
    }
    const still = await call('PATCH', `/api/crm/contacts/${theirs.id}`, { token: other.ownerToken, body: {} });
    assert.equal(still.status, 200);
    assert.equal(still.body.company, 'Theirs');
  });

  it('a missing or malformed contact id answers 404 contact_not_found', async () => {
    for (const id of [MISSING_ID, 'not-a-uuid', '1']) {
      for (const method of ['PATCH', 'DELETE']) {
        const res = await call(method, `/api/crm/contacts/${id}`, { token: acct.ownerToken, body: method === 'PATCH' ? {} : undefined });
        assert.equal(res.status, 404, `${method} ${id}: ${res.text}`);
        assert.equal(res.body.code, 'contact_not_found');
      }
    }
  });

  it('an Idempotency-Key replays the first create instead of making a second contact', async () => {
    const body = { name: 'Once', email: uniqueEmail() };
    const headers = { 'idempotency-key': `crm-${Date.now()}` };
    const first = await call('POST', '/api/crm/contacts', { token: acct.ownerToken, body, headers });
    const second = await call('POST', '/api/crm/contacts', { token: acct.ownerToken, body, headers });
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.equal(second.body.id, first.body.id);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
  });
});
