import assert from 'node:assert/strict';
import { deleteSubmission, processNewSubmission } from '../../../src/forms/service';
import { attributedContacts, attributedDeals, utmOf } from '../../../src/marketing/analytics/attribution';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';
import { boundProject, contactOf, deal, hoursAgo, onPage, submit } from './fixtures';

describe('content analytics: first-touch attribution', () => {
  it('a contact is attributed to the page of its earliest counted submission, and only to that page', async () => {
    const { accountId, projectId, siteId } = await boundProject();
    const contactId = await contactOf(accountId, 'ada@example.test');
    await onPage(await submit(accountId, siteId, { email: 'ada@example.test', at: hoursAgo(48) }), '/guide');
    await onPage(await submit(accountId, siteId, { email: 'ada@example.test', form: 'Demo', at: hoursAgo(2) }), '/pricing');
    const db = harness().db;
    const guide = await attributedContacts(db, accountId, projectId, 'https://example.com/guide/');
    assert.deepEqual([guide.count, guide.contacts.map((c) => c.contact_id)], [1, [contactId]]);
    assert.equal((await attributedContacts(db, accountId, projectId, '/pricing')).count, 0);
  });

  it('spam, duplicate and deleted rows are never a first touch', async () => {
    const { accountId, projectId, siteId } = await boundProject();
    await contactOf(accountId, 'bo@example.test');
    await onPage(await submit(accountId, siteId, { email: 'bo@example.test', at: hoursAgo(90), fields: { _gotcha: 'x' } }), '/spam');
    const deleted = await submit(accountId, siteId, { email: 'bo@example.test', at: hoursAgo(80) });
    await onPage(deleted, '/deleted');
    await deleteSubmission(harness().db, accountId, deleted);
    await onPage(await submit(accountId, siteId, { email: 'bo@example.test', at: hoursAgo(70) }), '/real');
    await onPage(await submit(accountId, siteId, { email: 'bo@example.test', at: hoursAgo(69) }), '/duplicate');
    const db = harness().db;
    const counts = [];
    for (const page of ['/spam', '/deleted', '/real', '/duplicate'])
      counts.push((await attributedContacts(db, accountId, projectId, page)).count);
    assert.deepEqual(counts, [0, 0, 1, 0]);
  });

  it('a contact first seen on another project is not attributed to this one', async () => {
    const { accountId, projectId, siteId } = await boundProject();
    const other = await newProjectId(accountId);
    await contactOf(accountId, 'cy@example.test');
    await submit(accountId, 'site_elsewhere', { email: 'cy@example.test', at: hoursAgo(30), historical: true, projectId: other });
    await submit(accountId, siteId, { email: 'cy@example.test', form: 'Quote', at: hoursAgo(3) });
    assert.equal((await attributedContacts(harness().db, accountId, projectId, '/')).count, 0);
    assert.equal((await attributedContacts(harness().db, accountId, other, '/')).count, 1);
  });

  it('the linked contact of a processed row is the one attributed, with the UTM fields of its first touch', async () => {
    const { accountId, projectId, siteId } = await boundProject();
    const id = await submit(accountId, siteId, {
      email: 'dee@example.test',
      fields: { utm_source: 'newsletter', 'UTM Medium': 'email', utmCampaign: 'launch', utm_term: ' ' },
    });
    const processed = await processNewSubmission({ db: harness().db }, accountId, id);
    assert.equal(processed.kind, 'processed');
    const { count, contacts } = await attributedContacts(harness().db, accountId, projectId, '/');
    assert.equal(count, 1);
    assert.equal(contacts[0].contact_id, processed.kind === 'processed' ? processed.contactId : '');
    assert.equal(contacts[0].form_submission_id, id);
    assert.deepEqual(contacts[0].utm, { source: 'newsletter', medium: 'email', campaign: 'launch' });
  });

  it('the range applies to the first touch; the limit caps the list, not the count', async () => {
    const { accountId, projectId, siteId } = await boundProject();
    for (const [email, h] of [
      ['e1@example.test', 50],
      ['e2@example.test', 10],
      ['e3@example.test', 5],
    ] as const) {
      await contactOf(accountId, email);
      await submit(accountId, siteId, { email, at: hoursAgo(h) });
    }
    const db = harness().db;
    assert.equal((await attributedContacts(db, accountId, projectId, '/', { from: hoursAgo(24) })).count, 2);
    const limited = await attributedContacts(db, accountId, projectId, '/', {}, 1);
    assert.deepEqual([limited.count, limited.contacts.length], [3, 1]);
  });

  it("another account's contacts, rows and deals never count", async () => {
    const mine = await boundProject();
    const other = await boundProject();
    const theirs = await contactOf(other.accountId, 'eve@example.test');
    await submit(other.accountId, mine.siteId, { email: 'eve@example.test' });
    await deal(other.accountId, theirs, 5000, 'EUR', { won: true });
    assert.equal((await attributedContacts(harness().db, mine.accountId, mine.projectId, '/')).count, 0);
    assert.deepEqual(await attributedDeals(harness().db, mine.accountId, mine.projectId, '/'), { count: 0, won: 0, revenue: [] });
  });

  describe('deals of attributed contacts', () => {
    it('won deals are revenue per currency in minor units, never summed across currencies', async () => {
      const { accountId, projectId, siteId } = await boundProject();
      const a = await contactOf(accountId, 'fay@example.test');
      const b = await contactOf(accountId, 'gus@example.test');
      await submit(accountId, siteId, { email: 'fay@example.test', at: hoursAgo(10) });
      await submit(accountId, siteId, { email: 'gus@example.test', at: hoursAgo(9) });
      await deal(accountId, a, 120_00, 'USD', { won: true });
      await deal(accountId, b, 30_50, 'USD', { won: true });
      await deal(accountId, b, 99_00, 'EUR', { won: true });
      await deal(accountId, a, 500_00, 'GBP');
      assert.deepEqual(await attributedDeals(harness().db, accountId, projectId, '/'), {
        count: 4,
        won: 3,
        revenue: [
          { currency: 'EUR', amount_minor: 99_00 },
          { currency: 'USD', amount_minor: 150_50 },
        ],
      });
    });

    it('a deal created before the first touch is not the page’s', async () => {
      const { accountId, projectId, siteId } = await boundProject();
      const c = await contactOf(accountId, 'hal@example.test');
      await submit(accountId, siteId, { email: 'hal@example.test', at: hoursAgo(10) });
      await deal(accountId, c, 700, 'USD', { won: true, createdAt: hoursAgo(20) });
      await deal(accountId, c, 300, 'USD', { won: true });
      assert.deepEqual(await attributedDeals(harness().db, accountId, projectId, '/'), {
        count: 1,
        won: 1,
        revenue: [{ currency: 'USD', amount_minor: 300 }],
      });
    });

    it('a page with no attributed contact has no deals (an invalid path neither)', async () => {
      const { accountId, projectId } = await boundProject();
      const empty = { count: 0, won: 0, revenue: [] };
      assert.deepEqual(await attributedDeals(harness().db, accountId, projectId, '/nothing'), empty);
      assert.deepEqual(await attributedDeals(harness().db, accountId, projectId, 'mailto:x'), empty);
    });
  });

  it('UTM field names are compared ignoring case and punctuation; blank values are left out', () => {
    assert.deepEqual(utmOf({ 'utm-source': 'ads', UTM_CONTENT: 'hero', utm_term: '', other: 'x', utm_medium: 3 }), {
      source: 'ads',
      content: 'hero',
    });
  });
});
