import assert from 'node:assert/strict';
import { call } from '../helpers/http';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { defaultPipeline } from '../../src/crm/service';
import { assertFieldError, createContact, MISSING_ID, stageOfKind, stages } from './fixtures';

const move = (token: string, body: unknown) => call('POST', '/api/crm/pipeline/move', { token, body });

describe('CRM pipeline: stages and moving contacts', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  it('a new account has a default pipeline: Lead, Qualified, Proposal, Negotiation, Won, Lost in order', async () => {
    const res = await call('GET', '/api/crm/pipeline/stages', { token: acct.ownerToken });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body), ['data']);
    assert.deepEqual(
      res.body.data.map((s: { name: string; position: number; kind: string }) => [s.name, s.position, s.kind]),
      [
        ['Lead', 1, 'open'],
        ['Qualified', 2, 'open'],
        ['Proposal', 3, 'open'],
        ['Negotiation', 4, 'open'],
        ['Won', 5, 'won'],
        ['Lost', 6, 'lost'],
      ],
    );
    for (const s of res.body.data) {
      assert.match(s.id, /^[0-9a-f-]{36}$/);
      assert.equal(s.contactCount, 0);
      assert.equal(s.dealCount, 0);
    }
  });

  it('reading the stages twice answers the same stage ids (created once)', async () => {
    const first = (await stages(acct.ownerToken)).map((s) => s.id);
    const second = (await stages(acct.ownerToken)).map((s) => s.id);
    assert.deepEqual(second, first);
  });

  it('concurrent first uses create exactly one default pipeline', async () => {
    const fresh = await newAccount();
    const { db } = harness();
    const pipelines = await Promise.all(Array.from({ length: 6 }, () => defaultPipeline(db, fresh.accountId)));
    assert.equal(new Set(pipelines.map((p) => p.id)).size, 1);
    const [{ count }] = await db('crm_pipeline_stages').where({ account_id: fresh.accountId }).count({ count: '*' });
    assert.equal(Number(count), 6);
  });

  it('each account has its own stages', async () => {
    const mine = (await stages(acct.ownerToken)).map((s) => s.id);
    const theirs = (await stages(other.ownerToken)).map((s) => s.id);
    assert.equal(mine.filter((id) => theirs.includes(id)).length, 0);
  });

  it('moving a contact answers 200 { contactId, stageId, movedAt } and the stage counts it', async () => {
    const contact = await createContact(acct.ownerToken);
    const lead = await stageOfKind(acct.ownerToken, 'open');
    const res = await move(acct.ownerToken, { contactId: contact.id, stageId: lead.id });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.contactId, contact.id);
    assert.equal(res.body.stageId, lead.id);
    assert.ok(Math.abs(Date.parse(res.body.movedAt) - Date.now()) < 60_000);
    assert.equal((await stages(acct.ownerToken)).find((s) => s.id === lead.id)!.contactCount, 1);
  });

  it('a contact is in at most one stage: moving it again takes it out of the previous one', async () => {
    const contact = await createContact(acct.ownerToken);
    const all = await stages(acct.ownerToken);
    const [qualified, won] = [all.find((s) => s.name === 'Qualified')!, all.find((s) => s.kind === 'won')!];
    await move(acct.ownerToken, { contactId: contact.id, stageId: qualified.id });
    const first = await move(acct.ownerToken, { contactId: contact.id, stageId: won.id });
    assert.equal(first.status, 200);
    const after = await stages(acct.ownerToken);
    assert.equal(after.find((s) => s.id === qualified.id)!.contactCount, 0);
    assert.equal(after.find((s) => s.id === won.id)!.contactCount, 1);
    const { db } = harness();
    const [{ count }] = await db('crm_contact_stages').where({ contact_id: contact.id }).count({ count: '*' });
    assert.equal(Number(count), 1);
  });

  it('moving a contact to the stage it is already in keeps movedAt', async () => {
    const contact = await createContact(acct.ownerToken);
    const lead = await stageOfKind(acct.ownerToken, 'open');
    const first = await move(acct.ownerToken, { contactId: contact.id, stageId: lead.id });
    const again = await move(acct.ownerToken, { contactId: contact.id, stageId: lead.id });
    assert.equal(again.status, 200);
    assert.equal(again.body.movedAt, first.body.movedAt);
  });

  it('a contact of another account, or a missing one, is 400 invalid_reference naming contactId', async () => {
    const theirs = await createContact(other.ownerToken);
    const lead = await stageOfKind(acct.ownerToken, 'open');
    for (const contactId of [theirs.id, MISSING_ID]) {
      const res = await move(acct.ownerToken, { contactId, stageId: lead.id });
      assertFieldError(res, 'body.contactId', 'invalid_reference');
      assert.equal(res.body.field, 'contactId');
    }
    const { db } = harness();
    assert.equal((await db('crm_contact_stages').where({ contact_id: theirs.id })).length, 0);
  });

  it('a stage of another account, or a missing one, is 400 invalid_reference naming stageId, and nothing moves', async () => {
    const contact = await createContact(acct.ownerToken);
    const theirStage = await stageOfKind(other.ownerToken, 'won');
    for (const stageId of [theirStage.id, MISSING_ID]) {
      const res = await move(acct.ownerToken, { contactId: contact.id, stageId });
      assertFieldError(res, 'body.stageId', 'invalid_reference');
      assert.equal(res.body.field, 'stageId');
    }
    assert.equal((await stages(other.ownerToken)).find((s) => s.id === theirStage.id)!.contactCount, 0);
  });

  it('malformed or missing ids and unknown fields in the move body are 400 naming the field', async () => {
    const lead = await stageOfKind(acct.ownerToken, 'open');
    assertFieldError(await move(acct.ownerToken, { contactId: 'nope', stageId: lead.id }), 'body.contactId');
    assertFieldError(await move(acct.ownerToken, { contactId: MISSING_ID }), 'body.stageId');
    const extra = await move(acct.ownerToken, { contactId: MISSING_ID, stageId: lead.id, position: 2 });
    assert.equal(extra.status, 400);
    assert.equal(extra.body.code, 'validation_failed');
  });

  it('deleting a contact takes it off the board', async () => {
    const contact = await createContact(acct.ownerToken);
    const lost = await stageOfKind(acct.ownerToken, 'lost');
    await move(acct.ownerToken, { contactId: contact.id, stageId: lost.id });
    const before = (await stages(acct.ownerToken)).find((s) => s.id === lost.id)!.contactCount;
    await call('DELETE', `/api/crm/contacts/${contact.id}`, { token: acct.ownerToken });
    assert.equal((await stages(acct.ownerToken)).find((s) => s.id === lost.id)!.contactCount, before - 1);
  });

  it('the stage list takes no query parameters: an unknown one is 400', async () => {
    const res = await call('GET', '/api/crm/pipeline/stages?pipeline_id=x', { token: acct.ownerToken });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_failed');
  });
});
