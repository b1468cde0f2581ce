import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { processNewSubmission, recordPlatformSubmission } from '../../src/forms/service';
import { submissionIdOf } from '../../src/forms/submissionId';
import { newAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { deliveryPayload, formTriggers, ledgerRows, notifications, record } from './fixtures';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('forms ledger (doc2 Events "Form submission handling")', () => {
  describe('submission id rule', () => {
    it('payload.id is the submission id when it is not the form element id', () => {
      assert.equal(
        submissionIdOf({ id: 'sub_1', formElementId: 'el_1', name: 'Contact', submittedAt: '2026-11-26T10:00:00.000Z' }),
        'sub_1',
      );
    });

    it('payload.id equal to formElementId: the id is the hex SHA-256 of "<name>\\n<submittedAt>"', () => {
      const payload = { id: 'el_1', formElementId: 'el_1', name: 'Contact', submittedAt: '2026-11-26T10:00:00.000Z' };
      assert.equal(submissionIdOf(payload), sha256('Contact\n2026-11-26T10:00:00.000Z'));
      assert.equal(submissionIdOf({ ...payload, id: undefined }), sha256('Contact\n2026-11-26T10:00:00.000Z'), 'no id at all: derived too');
    });

    it('no id, and no name or timestamp to derive one: no submission id', () => {
      assert.equal(submissionIdOf({ data: { Email: 'x@example.test' } }), undefined);
      assert.equal(submissionIdOf({ id: 'el_1', formElementId: 'el_1', name: 'Contact' }), undefined, 'a name without a time');
    });
  });

  it('a delivery is written with source platform, form label, fields, page path /, key platform:<account>:<id> and the raw payload ids', async () => {
    const { accountId } = await newAccount();
    const payload = deliveryPayload();
    const outcome = await record(accountId, payload, { connectionId: '00000000-0000-4000-8000-000000000001', siteId: 'site_forms' });
    assert.equal(outcome.kind, 'recorded');
    const [row] = await ledgerRows(accountId);
    assert.equal(row.source, 'platform');
    assert.equal(row.form_label, 'Contact us');
    assert.deepEqual(row.fields, payload.data);
    assert.equal(row.page_path, '/');
    assert.equal(row.idempotency_key, `platform:${accountId}:${payload.id}`);
    assert.equal(row.email, (payload.data as { Email: string }).Email);
    assert.deepEqual(
      [row.raw_payload.site_id, row.raw_payload.connection_id, row.raw_payload.event_id, row.raw_payload.payload],
      ['site_forms', '00000000-0000-4000-8000-000000000001', payload.id, payload],
    );
    assert.equal(new Date(row.submitted_at).toISOString(), payload.submittedAt);
  });

  it('idempotency: the same delivery twice is one row and one form_submitted trigger', async () => {
    const { accountId } = await newAccount();
    const payload = deliveryPayload();
    const first = await record(accountId, payload);
    const second = await record(accountId, payload);
    assert.deepEqual([first.kind === 'recorded' && first.created, second.kind === 'recorded' && second.created], [true, false]);
    assert.equal((await ledgerRows(accountId)).length, 1);
    const triggers = await formTriggers(accountId);
    assert.equal(triggers.length, 1);
    assert.equal(triggers[0].dedup_key, `platform:${accountId}:${payload.id}`);
    assert.equal(triggers[0].payload.form_label, 'Contact us');
  });

  it('idempotency: inside a caller transaction that rolls back, neither the row nor its trigger remains', async () => {
    const { accountId } = await newAccount();
    const { db } = harness();
    await assert.rejects(
      db.transaction(async (trx) => {
        await recordPlatformSubmission(trx, accountId, { connectionId: 'c', siteId: 's', payload: deliveryPayload(), historical: false });
        throw new Error('receiver failed later');
      }),
      /receiver failed later/,
    );
    assert.deepEqual([(await ledgerRows(accountId)).length, (await formTriggers(accountId)).length], [0, 0]);
  });

  it('spam: a filled honeypot field flags the row spam; it fires no trigger and processing skips it', async () => {
    const { accountId } = await newAccount();
    const spam = deliveryPayload({ data: { Email: 'bot@example.test', _gotcha: 'http://spam.example' } });
    const blankHoneypot = deliveryPayload({ data: { Email: 'person@example.test', 'Bot-Field': '  ' } });
    await record(accountId, spam);
    await record(accountId, blankHoneypot);
    const rows = await ledgerRows(accountId);
    assert.deepEqual(
      rows.map((r) => [r.email, r.spam]),
      [
        ['bot@example.test', true],
        ['person@example.test', false],
      ],
    );
    assert.equal((await formTriggers(accountId)).length, 1, 'only the non-spam row fired');
    assert.equal((await processNewSubmission(harness().deps, accountId, spam.id as string)).kind, 'skipped');
    assert.equal((await notifications(accountId)).length, 0);
  });

  it('duplicate: same email and form label within 24 h of an earlier live row; another form, a later day or a deleted original is not', async () => {
    const { accountId } = await newAccount();
    const { db } = harness();
    const at = (h: number) => new Date(Date.UTC(2026, 10, 20, 8) + h * 3600_000).toISOString();
    const data = { Email: 'Lead@Example.test', Name: 'Lead' };
    const original = deliveryPayload({ data, submittedAt: at(0) });
    await record(accountId, original);
    await record(accountId, deliveryPayload({ data: { ...data, Email: 'lead@example.test' }, submittedAt: at(5) })); // duplicate
    await record(accountId, deliveryPayload({ data, name: 'Newsletter', submittedAt: at(6) })); // other form
    await record(accountId, deliveryPayload({ data, submittedAt: at(30) })); // 25 h after the duplicate, 30 h after the original
    const rows = await ledgerRows(accountId);
    assert.deepEqual(
      rows.map((r) => r.duplicate),
      [false, true, false, false],
    );
    // Once the earlier rows are deleted, a submission an hour after the original is not a duplicate of them.
    await db('form_submissions').where({ account_id: accountId }).update({ deleted_at: new Date() });
    await record(accountId, deliveryPayload({ data, submittedAt: at(1) }));
    assert.equal((await ledgerRows(accountId)).at(-1).duplicate, false);
    assert.equal((await formTriggers(accountId)).length, 5, 'duplicates are not spam: they fire like any new row');
  });

  it('permanent: no id, no name and no timestamp is reported with a reason and writes nothing', async () => {
    const { accountId } = await newAccount();
    const outcome = await record(accountId, { siteId: 'site_forms', data: { Email: 'x@example.test' } });
    assert.equal(outcome.kind, 'permanent');
    assert.match(outcome.kind === 'permanent' ? outcome.reason : '', /no id/);
    assert.deepEqual([(await ledgerRows(accountId)).length, (await formTriggers(accountId)).length], [0, 0]);
  });

  it('processNewSubmission creates the contact, then a later submission updates it; each notifies once, retries change nothing', async () => {
    const { accountId } = await newAccount();
    const { db, deps } = harness();
    const email = 'grace@example.test';
    const first = deliveryPayload({ data: { Email: email, Message: 'hi' } });
    await record(accountId, first);
    const a = await processNewSubmission(deps, accountId, first.id as string);
    assert.equal(a.kind, 'processed');
    assert.equal(a.kind === 'processed' && a.contactCreated, true);
    const contactId = a.kind === 'processed' ? a.contactId : null;
    let contact = await db('crm_contacts').where({ account_id: accountId, id: contactId }).first();
    assert.deepEqual([contact.email, contact.name, contact.source], [email, null, 'form']);

    assert.equal((await processNewSubmission(deps, accountId, first.id as string)).kind, 'already_processed', 'a retry changes nothing');

    const second = deliveryPayload({
      name: 'Quote request',
      data: { 'Your Email': email.toUpperCase(), 'First Name': 'Grace', 'Last Name': 'Hopper' },
    });
    const recorded = await record(accountId, second);
    // The ledger row id is accepted as well as the platform submission id.
    const b = await processNewSubmission(deps, accountId, recorded.kind === 'recorded' ? recorded.id : '');
    assert.deepEqual(b.kind === 'processed' && [b.contactId, b.contactCreated], [contactId, false]);
    contact = await db('crm_contacts').where({ account_id: accountId, id: contactId }).first();
    assert.equal(contact.name, 'Grace Hopper', 'the missing name was filled in from the form');
    assert.equal((await db('crm_contacts').where({ account_id: accountId })).length, 1);

    const rows = await ledgerRows(accountId);
    assert.deepEqual(
      rows.map((r) => [r.contact_id, r.processed_at !== null]),
      [
        [contactId, true],
        [contactId, true],
      ],
    );
    const timeline = await db('crm_contact_activities').where({ account_id: accountId, contact_id: contactId, kind: 'form_submission' });
    assert.equal(timeline.length, 2);
    const inbox = await notifications(accountId);
    assert.equal(inbox.length, 2, 'one notification per submission');
    assert.deepEqual(inbox.map((i) => i.body.form_submission_id).sort(), rows.map((r) => r.id).sort());
  });

  it('processNewSubmission without an email notifies but creates no contact; an unknown id is not_found', async () => {
    const { accountId } = await newAccount();
    const { deps, db } = harness();
    const payload = deliveryPayload({ data: { Name: 'No Mail', Message: 'call me' } });
    await record(accountId, payload);
    const outcome = await processNewSubmission(deps, accountId, payload.id as string);
    assert.deepEqual(outcome.kind === 'processed' && [outcome.contactId, outcome.notified], [null, true]);
    assert.equal((await db('crm_contacts').where({ account_id: accountId })).length, 0);
    assert.equal((await processNewSubmission(deps, accountId, 'nope')).kind, 'not_found');
    const other = await newAccount();
    assert.equal((await processNewSubmission(deps, other.accountId, payload.id as string)).kind, 'not_found', 'another account');
  });

  it('historical rows (backfill) start no workflow and notify nobody, and use the same key as a delivery', async () => {
    const { accountId } = await newAccount();
    const { deps } = harness();
    const payload = deliveryPayload();
    const outcome = await record(accountId, payload, { historical: true });
    assert.equal(outcome.kind === 'recorded' && outcome.created, true);
    assert.equal((await formTriggers(accountId)).length, 0);
    assert.equal((await processNewSubmission(deps, accountId, payload.id as string)).kind, 'skipped');
    assert.equal((await notifications(accountId)).length, 0);
    const [row] = await ledgerRows(accountId);
    assert.deepEqual([row.historical, row.contact_id, row.processed_at], [true, null, null]);
    // The same submission delivered later is a replay of the imported row: nothing new fires.
    const again = await record(accountId, payload);
    assert.equal(again.kind === 'recorded' && again.created, false);
    assert.equal((await formTriggers(accountId)).length, 0);
  });

  it('a delivery whose id is the form element id and the backfill of the same submission (its real id) are one row, whichever comes first', async () => {
    const { accountId } = await newAccount();
    const submittedAt = new Date().toISOString();
    const delivered = deliveryPayload({ name: 'Quote', submittedAt });
    delivered.id = delivered.formElementId;
    const listed = { id: `real_${Date.now()}`, name: 'Quote', siteId: delivered.siteId, data: delivered.data, submittedAt };

    const first = await record(accountId, delivered);
    assert.equal(first.kind === 'recorded' && first.created, true);
    const backfilled = await record(accountId, listed, { historical: true });
    assert.deepEqual(backfilled.kind === 'recorded' && [backfilled.created, backfilled.id], [false, first.kind === 'recorded' && first.id]);

    const { accountId: other } = await newAccount();
    const imported = await record(other, listed, { historical: true });
    assert.equal(imported.kind === 'recorded' && imported.created, true);
    const live = await record(other, delivered);
    assert.deepEqual(live.kind === 'recorded' && [live.created, live.id], [false, imported.kind === 'recorded' && imported.id]);
    assert.equal((await formTriggers(other)).length, 0, 'the delivery of an imported submission fires nothing');
    assert.equal((await ledgerRows(accountId)).length + (await ledgerRows(other)).length, 2);
  });
});
