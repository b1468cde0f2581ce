import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { arm, inSeconds, itemRow, newLinkedItem, publishCalls, resultOf, startPublishWorld, type PublishWorld } from './workflowKit';

const inboxItems = (accountId: string, contentId: string) =>
  harness()
    .db('inbox_items')
    .where({ account_id: accountId, dedup_key: `content_publish_failed:${contentId}` });

describe('content-publish workflow: a publish that keeps failing is marked failed, never a silent miss', function () {
  this.timeout(60_000);
  let pw: PublishWorld;
  before(async () => {
    pw = await startPublishWorld();
  });
  after(async () => {
    await pw?.close();
  });
  afterEach(() => pw.world.sim.clearFaults());

  it('a failing platform publish ends `failed` once retries are spent: publish_failed_at and the coded error, the date cleared, an inbox item, and the calendar shows kind failed', async () => {
    const id = await newLinkedItem(pw);
    pw.world.sim.injectFault({ kind: '5xx', status: 500, path: `/collections/${pw.collectionId}/items/publish`, times: 10 });
    const at = inSeconds(2);
    const armed = await arm(pw, id, at);
    const mark = publishCalls(pw).length;
    const result = await resultOf(armed);
    assert.equal(result.outcome, 'failed');
    assert.equal(result.error?.code, 'platform_upstream');
    assert.equal(publishCalls(pw).length - mark, 3, 'one publish call per attempt (FAST_RETRY: 3)');

    const row = await itemRow(id);
    assert.ok(row.publish_failed_at);
    assert.deepEqual(row.publish_error, {
      code: 'platform_upstream',
      message: result.error!.message,
      scheduled_for: at.toISOString(),
      job_id: armed.workflowId,
    });
    assert.equal(row.status, 'draft');
    assert.equal(row.scheduled_publish_at, null);
    assert.equal(row.schedule_executes, false);

    const inbox = await inboxItems(pw.t.account.accountId, id);
    assert.equal(inbox.length, 1);
    assert.equal(inbox[0].kind, 'content_publish_failed');
    assert.equal(inbox[0].urgency, 'urgent');
    assert.equal(inbox[0].body.content_id, id);
    assert.equal(inbox[0].body.job_id, armed.workflowId);

    const calendar = await pw.world.app.call('GET', '/api/marketing/content/calendar', { token: pw.t.account.ownerToken });
    assert.equal(calendar.status, 200, calendar.text);
    const entries = calendar.body.entries.filter((e: { content_id: string }) => e.content_id === id);
    assert.deepEqual(
      entries.map((e: { kind: string; date: string; executes: boolean }) => [e.kind, e.date]),
      [['failed', new Date(row.publish_failed_at).toISOString()]],
    );
  });

  it('attempts that fail and a retry that succeeds: published, and no failure was ever stamped or raised', async () => {
    const id = await newLinkedItem(pw);
    pw.world.sim.injectFault({ kind: '5xx', status: 503, path: `/collections/${pw.collectionId}/items/publish`, times: 2 });
    const mark = pw.world.sim.requests().length;
    const armed = await arm(pw, id, inSeconds(2));
    const result = await resultOf(armed);
    assert.equal(result.outcome, 'published');
    const row = await itemRow(id);
    assert.equal(row.status, 'published');
    assert.equal(row.publish_failed_at, null);
    assert.equal(row.publish_error, null);
    assert.equal((await inboxItems(pw.t.account.accountId, id)).length, 0);
    const entries = pw.world.sim
      .requests()
      .slice(mark)
      .filter((r) => r.method === 'POST' && r.path.endsWith(`/collections/${pw.collectionId}/items`));
    assert.equal(entries.length, 1, 'the entry made by the first attempt is updated by the retries, never made twice');
  });

  it('a refusal that repeats itself (4xx: required fields the item has nothing for) fails at once, without retries', async () => {
    const strict = pw.world.sim.addCollection(pw.t.siteId, {
      displayName: 'Strict',
      fields: [{ slug: 'author-bio', type: 'PlainText', isRequired: true }],
    }).id;
    const id = await newLinkedItem(pw);
    await harness()
      .db('content_items')
      .where({ id })
      .update({ cms_link: JSON.stringify({ project_id: pw.t.projectId, collection_id: strict }) });
    const armed = await arm(pw, id, inSeconds(1));
    const result = await resultOf(armed);
    assert.equal(result.outcome, 'failed');
    assert.equal(result.error?.code, 'required_fields_unmapped');
    const { events } = await armed.handle.fetchHistory();
    const attempts = events!.filter((e) => e.activityTaskStartedEventAttributes).map((e) => e.activityTaskStartedEventAttributes!.attempt);
    assert.deepEqual(attempts, [1, 1, 1], 'one publish attempt, then the failure record (then the job-closed report of every job)');
  });
});
