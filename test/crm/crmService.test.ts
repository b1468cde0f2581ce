import assert from 'node:assert/strict';
import { newAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { addActivity, applyCommerceOrder, upsertContactByEmail } from '../../src/crm/service';
import { uniqueEmail } from './fixtures';

// The functions other areas call (commerce order ingestion, form ledgers), driven against the real database.
describe('CRM service for other areas', () => {
  it('upsertContactByEmail creates a contact with the given source, then finds it again in any case', async () => {
    const { accountId, ownerToken } = await newAccount();
    const { db } = harness();
    const email = uniqueEmail('Buyer');
    const first = await upsertContactByEmail(db, accountId, { email, name: 'Buyer One', source: 'commerce' });
    assert.equal(first.created, true);
    assert.equal(first.contact.source, 'commerce');
    const again = await upsertContactByEmail(db, accountId, { email: email.toUpperCase(), name: 'Other Name', source: 'form' });
    assert.equal(again.created, false);
    assert.equal(again.contact.id, first.contact.id);
    assert.equal(again.contact.name, 'Buyer One');
    assert.equal(again.contact.source, 'commerce');
    const listed = await call('GET', `/api/crm/contacts?search=${encodeURIComponent(email)}`, { token: ownerToken });
    assert.equal(listed.body.contacts[0].source, 'commerce');
  });

  it('upsertContactByEmail fills a missing name of an existing contact', async () => {
    const { accountId } = await newAccount();
    const { db } = harness();
    const email = uniqueEmail();
    await upsertContactByEmail(db, accountId, { email, source: 'commerce' });
    const named = await upsertContactByEmail(db, accountId, { email, name: 'Late Name', source: 'commerce' });
    assert.equal(named.contact.name, 'Late Name');
  });

  it('concurrent upserts of one email end on one contact', async () => {
    const { accountId } = await newAccount();
    const { db } = harness();
    const email = uniqueEmail();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => upsertContactByEmail(db, accountId, { email, name: `N${i}`, source: 'form' })),
    );
    assert.equal(new Set(results.map((r) => r.contact.id)).size, 1);
    assert.equal(results.filter((r) => r.created).length, 1);
  });

  it('applyCommerceOrder rolls orders up and flags only the first one', async () => {
    const { accountId, ownerToken } = await newAccount();
    const { db } = harness();
    const { contact } = await upsertContactByEmail(db, accountId, { email: uniqueEmail(), source: 'commerce' });
    const a = await applyCommerceOrder(db, accountId, contact.id, {
      orderId: 'o-2',
      totalCents: 2500,
      orderedAt: new Date('2026-11-02T00:00:00Z'),
    });
    const b = await applyCommerceOrder(db, accountId, contact.id, {
      orderId: 'o-1',
      totalCents: 1000,
      orderedAt: new Date('2026-11-01T00:00:00Z'),
    });
    assert.deepEqual([a.firstOrder, b.firstOrder], [true, false]);
    const res = await call('GET', `/api/crm/contacts?search=${encodeURIComponent(contact.email!)}`, { token: ownerToken });
    const c = res.body.contacts[0];
    assert.deepEqual(
      [c.commerceTotalSpentCents, c.commerceOrderCount, c.commerceFirstOrderId, c.commerceFirstOrderAt, c.commerceLastOrderAt],
      [3500, 2, 'o-1', '2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z'],
    );
  });

  it('applyCommerceOrder on a contact of another account throws contact_not_found and changes nothing', async () => {
    const [mine, theirs] = await Promise.all([newAccount(), newAccount()]);
    const { db } = harness();
    const { contact } = await upsertContactByEmail(db, theirs.accountId, { email: uniqueEmail(), source: 'commerce' });
    await assert.rejects(
      applyCommerceOrder(db, mine.accountId, contact.id, { orderId: 'x', totalCents: 1, orderedAt: new Date() }),
      (err: { code?: string }) => err.code === 'contact_not_found',
    );
    assert.equal((await db('crm_contacts').where({ id: contact.id }).first()).commerce_order_count, 0);
  });

  it('addActivity inside a caller transaction is idempotent by externalId', async () => {
    const { accountId } = await newAccount();
    const { db } = harness();
    const { contact } = await upsertContactByEmail(db, accountId, { email: uniqueEmail(), source: 'commerce' });
    const input = { kind: 'order', body: 'Order #7', externalId: 'commerce:order:7', metadata: { total: 700 } };
    const first = await db.transaction((trx) => addActivity(trx, accountId, contact.id, input));
    const second = await addActivity(db, accountId, contact.id, input);
    assert.deepEqual([first.created, second.created], [true, false]);
    assert.equal(second.activity.id, first.activity.id);
  });
});
