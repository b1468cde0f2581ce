import assert from 'node:assert/strict';
import { call } from '../helpers/http';
import { newAccount, newUser, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { assertFieldError, createContact, MISSING_ID } from './fixtures';

const createTask = (token: string, body: unknown) => call('POST', '/api/crm/tasks', { token, body });
const listTasks = (token: string, query = '') => call('GET', `/api/crm/tasks${query}`, { token });
const countTasks = async (accountId: string) =>
  Number((await harness().db('crm_tasks').where({ account_id: accountId }).count({ n: '*' }))[0].n);

describe('CRM tasks', () => {
  let acct: TestAccount;
  let other: TestAccount;
  let contactId: string;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
    contactId = (await createContact(acct.ownerToken)).id;
  });

  it('creating a task answers 201 with title, contactId, dueDate, assignedTo, status open and createdBy', async () => {
    const res = await createTask(acct.ownerToken, {
      title: 'Call back',
      contactId,
      dueDate: '2026-12-01T09:30:00+02:00',
      assignedTo: acct.ownerId,
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(
      {
        title: res.body.title,
        contactId: res.body.contactId,
        dueDate: res.body.dueDate,
        assignedTo: res.body.assignedTo,
        status: res.body.status,
        completedAt: res.body.completedAt,
        createdBy: res.body.createdBy,
      },
      {
        title: 'Call back',
        contactId,
        dueDate: '2026-12-01T07:30:00.000Z',
        assignedTo: acct.ownerId,
        status: 'open',
        completedAt: null,
        createdBy: acct.ownerId,
      },
    );
  });

  it('only title is required', async () => {
    const res = await createTask(acct.ownerToken, { title: 'Think' });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual([res.body.contactId, res.body.dueDate, res.body.assignedTo], [null, null, null]);
    assertFieldError(await createTask(acct.ownerToken, { contactId }), 'body.title');
    assertFieldError(await createTask(acct.ownerToken, { title: '   ' }), 'body.title');
  });

  it('dueDate must be an ISO 8601 timestamp with a zone: dates alone, local times and prose are 400 naming body.dueDate', async () => {
    for (const dueDate of ['2026-12-01', '2026-12-01T09:00:00', 'tomorrow', '12/01/2026', '2026-02-30T09:00:00Z', 1764579600000]) {
      assertFieldError(await createTask(acct.ownerToken, { title: 'x', dueDate }), 'body.dueDate');
    }
  });

  it('a contactId of another account or a missing one is 400 invalid_reference naming contactId, and nothing is written', async () => {
    const theirs = await createContact(other.ownerToken);
    const before = await countTasks(acct.accountId);
    for (const id of [theirs.id, MISSING_ID]) {
      const res = await createTask(acct.ownerToken, { title: 'x', contactId: id });
      assertFieldError(res, 'body.contactId', 'invalid_reference');
      assert.equal(res.body.field, 'contactId');
    }
    assert.equal(await countTasks(acct.accountId), before);
  });

  it('an assignedTo user of another account or a missing one is 400 invalid_reference naming assignedTo, and nothing is written', async () => {
    const before = await countTasks(acct.accountId);
    for (const id of [other.ownerId, MISSING_ID]) {
      const res = await createTask(acct.ownerToken, { title: 'x', contactId, assignedTo: id });
      assertFieldError(res, 'body.assignedTo', 'invalid_reference');
      assert.equal(res.body.field, 'assignedTo');
    }
    assert.equal(await countTasks(acct.accountId), before);
  });

  it('malformed ids and unknown fields are 400 naming the field', async () => {
    assertFieldError(await createTask(acct.ownerToken, { title: 'x', contactId: '42' }), 'body.contactId');
    assertFieldError(await createTask(acct.ownerToken, { title: 'x', assignedTo: 'bob' }), 'body.assignedTo');
    const extra = await createTask(acct.ownerToken, { title: 'x', priority: 'high' });
    assert.equal(extra.status, 400);
    assert.equal(extra.body.code, 'validation_failed');
  });

  describe('listing', () => {
    let acctL: TestAccount;
    let member: { userId: string; token: string };
    let contactA: string;
    before(async () => {
      acctL = await newAccount();
      member = await newUser(acctL.accountId, 'member');
      contactA = (await createContact(acctL.ownerToken)).id;
      const t = acctL.ownerToken;
      for (const body of [
        { title: 'no due date' },
        { title: 'late', dueDate: '2026-12-20T00:00:00Z', assignedTo: member.userId },
        { title: 'early', dueDate: '2026-12-01T00:00:00Z', contactId: contactA },
        { title: 'middle', dueDate: '2026-12-10T00:00:00Z', contactId: contactA, assignedTo: member.userId },
      ])
        assert.equal((await createTask(t, body)).status, 201);
    });
    const titles = (res: { body: any }) => res.body.data.map((t: { title: string }) => t.title);

    it('answers { data, total, page, limit }, soonest due first and undated last', async () => {
      const res = await listTasks(acctL.ownerToken);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['data', 'limit', 'page', 'total']);
      assert.deepEqual(titles(res), ['early', 'middle', 'late', 'no due date']);
      assert.deepEqual([res.body.total, res.body.page, res.body.limit], [4, 1, 25]);
    });

    it('filters by contactId, assignedTo, dueBefore and dueAfter', async () => {
      const t = acctL.ownerToken;
      assert.deepEqual(titles(await listTasks(t, `?contactId=${contactA}`)), ['early', 'middle']);
      assert.deepEqual(titles(await listTasks(t, `?assignedTo=${member.userId}`)), ['middle', 'late']);
      assert.deepEqual(titles(await listTasks(t, '?dueBefore=2026-12-10T00:00:00Z')), ['early']);
      assert.deepEqual(titles(await listTasks(t, '?dueAfter=2026-12-10T00:00:00Z')), ['middle', 'late']);
      assert.deepEqual(titles(await listTasks(t, `?dueAfter=2026-12-05T00:00:00Z&dueBefore=2026-12-15T00:00:00Z`)), ['middle']);
    });

    it('status filters open and done; PATCH status done stamps completedAt and open clears it', async () => {
      const t = acctL.ownerToken;
      const early = (await listTasks(t, `?contactId=${contactA}`)).body.data[0];
      const done = await call('PATCH', `/api/crm/tasks/${early.id}`, { token: t, body: { status: 'done' } });
      assert.equal(done.status, 200, done.text);
      assert.equal(done.body.status, 'done');
      assert.ok(done.body.completedAt);
      assert.deepEqual(titles(await listTasks(t, '?status=done')), ['early']);
      assert.deepEqual(titles(await listTasks(t, '?status=open')), ['middle', 'late', 'no due date']);
      const reopened = await call('PATCH', `/api/crm/tasks/${early.id}`, { token: t, body: { status: 'open' } });
      assert.equal(reopened.body.completedAt, null);
    });

    it('pages with page and limit', async () => {
      const res = await listTasks(acctL.ownerToken, '?page=2&limit=3');
      assert.deepEqual(titles(res), ['no due date']);
      assert.equal(res.body.total, 4);
    });

    it('bad filters and paging are 400 naming the query field', async () => {
      const t = acctL.ownerToken;
      assertFieldError(await listTasks(t, '?status=closed'), 'query.status');
      assertFieldError(await listTasks(t, '?dueBefore=2026-12-01'), 'query.dueBefore');
      assertFieldError(await listTasks(t, '?contactId=abc'), 'query.contactId');
      assertFieldError(await listTasks(t, '?limit=101'), 'query.limit');
      assertFieldError(await listTasks(t, '?page=0'), 'query.page');
    });

    it("another account's tasks are never listed", async () => {
      const res = await listTasks(other.ownerToken);
      assert.ok(!res.body.data.some((t: { title: string }) => t.title === 'late'));
      assert.equal((await listTasks(acctL.ownerToken, `?assignedTo=${other.ownerId}`)).body.total, 0);
    });
  });

  it('PATCH changes the fields sent and null clears contactId, dueDate and assignedTo', async () => {
    const task = (
      await createTask(acct.ownerToken, { title: 'Edit me', contactId, dueDate: '2026-12-01T00:00:00Z', assignedTo: acct.ownerId })
    ).body;
    const res = await call('PATCH', `/api/crm/tasks/${task.id}`, {
      token: acct.ownerToken,
      body: { title: 'Edited', contactId: null, dueDate: null, assignedTo: null },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.title, res.body.contactId, res.body.dueDate, res.body.assignedTo], ['Edited', null, null, null]);
  });

  it('PATCH with references of another account is 400 invalid_reference and changes nothing', async () => {
    const task = (await createTask(acct.ownerToken, { title: 'Keep', contactId })).body;
    const theirs = await createContact(other.ownerToken);
    assertFieldError(
      await call('PATCH', `/api/crm/tasks/${task.id}`, { token: acct.ownerToken, body: { title: 'Changed', contactId: theirs.id } }),
      'body.contactId',
      'invalid_reference',
    );
    assertFieldError(
      await call('PATCH', `/api/crm/tasks/${task.id}`, { token: acct.ownerToken, body: { assignedTo: other.ownerId } }),
      'body.assignedTo',
      'invalid_reference',
    );
    const row = await harness().db('crm_tasks').where({ id: task.id }).first();
    assert.deepEqual([row.title, row.contact_id, row.assigned_to], ['Keep', contactId, null]);
  });

  it('a task of another account, a missing or a malformed id answers 404 task_not_found to PATCH', async () => {
    const theirs = (await createTask(other.ownerToken, { title: 'Theirs' })).body;
    for (const id of [theirs.id, MISSING_ID, 'not-a-uuid']) {
      const res = await call('PATCH', `/api/crm/tasks/${id}`, { token: acct.ownerToken, body: { status: 'done' } });
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 'task_not_found');
    }
    assert.equal((await harness().db('crm_tasks').where({ id: theirs.id }).first()).status, 'open');
  });

  it('deleting its contact keeps the task with contactId null', async () => {
    const c = await createContact(acct.ownerToken);
    const task = (await createTask(acct.ownerToken, { title: 'Orphan', contactId: c.id })).body;
    await call('DELETE', `/api/crm/contacts/${c.id}`, { token: acct.ownerToken });
    const row = await harness().db('crm_tasks').where({ id: task.id }).first();
    assert.equal(row.contact_id, null);
  });
});
