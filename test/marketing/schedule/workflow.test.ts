import assert from 'node:assert/strict';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import {
  cancelUpdate,
  rescheduleUpdate,
  scheduleQuery,
  SCHEDULE_IN_PAST,
  SCHEDULE_NOT_WAITING,
} from '../../../workflows/contentPublish.contract';
import { newAccount } from '../../helpers/accounts';
import { ContentIdKey, JobKindKey, ProjectIdKey } from '../../../workflows/searchAttributes';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { jobUrl } from '../../jobs/jobTestKit';
import { auditRows } from '../../sitePlatform/operations/fixtures';
import { arm, inSeconds, itemRow, newLinkedItem, publishCalls, resultOf, startPublishWorld, type PublishWorld } from './workflowKit';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function refusal(promise: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await promise.then(
    () => assert.fail('the update was accepted'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof WorkflowUpdateFailedError, String(err));
  assert.ok(err.cause instanceof ApplicationFailure, String(err.cause));
  return err.cause;
}

describe('content-publish workflow: the reschedulable timer and the publish at the time (platform CMS)', function () {
  this.timeout(60_000);
  let pw: PublishWorld;
  before(async () => {
    pw = await startPublishWorld();
  });
  after(async () => {
    await pw?.close();
  });

  it('fires at the time: the entry is published through the runner with the workflow as audit actor, the item is stamped published and the date cleared', async () => {
    const id = await newLinkedItem(pw);
    const at = inSeconds(3);
    const armed = await arm(pw, id, at);
    assert.deepEqual(armed.view, { status: 'scheduled', at: at.toISOString(), deployTarget: 'production' });
    assert.equal((await armed.handle.query(scheduleQuery)).status, 'scheduled');
    assert.equal((await itemRow(id)).status, 'draft', 'nothing goes live before the time');

    const result = await resultOf(armed);
    assert.equal(result.outcome, 'published');
    assert.ok(Date.parse(result.publishedAt!) >= at.getTime(), `${result.publishedAt} is not before ${at.toISOString()}`);

    const row = await itemRow(id);
    assert.equal(row.status, 'published');
    assert.equal(row.published_at.toISOString(), result.publishedAt);
    assert.equal(row.scheduled_publish_at, null);
    assert.equal(row.schedule_executes, false);
    assert.equal(row.publish_failed_at, null);
    const entryId = row.cms_link.item_id as string;
    const entry = pw.world.sim.item(pw.collectionId, entryId)!;
    assert.equal(entry.isDraft, false);
    assert.ok(entry.lastPublished, 'the entry is live');
    const site = pw.world.sim.site(pw.t.siteId)!;
    assert.equal(row.site_entry_url, `https://${site.shortName}.webflow.io/blog/${entry.fieldData.slug}`);

    const { runId } = await armed.handle.describe();
    const publishes = (await auditRows(pw.t.account.accountId)).filter((a) => a.action === 'platform.cms_item_publish');
    assert.deepEqual(
      publishes.map((a) => [a.actor, a.target]),
      [[`workflow:${armed.workflowId}:${runId}`, pw.t.siteId]],
    );

    // The recorded history replays against the current workflow code (no non-determinism).
    await Worker.runReplayHistory({ workflowBundle: harness().bundle }, await armed.handle.fetchHistory(), armed.workflowId);
  });

  it('a reschedule moves the fire time: nothing is published at the old time, the item is published at the new one', async () => {
    const id = await newLinkedItem(pw);
    const first = await arm(pw, id, inSeconds(2));
    const later = inSeconds(5);
    const moved = await arm(pw, id, later);
    assert.equal(moved.workflowId, first.workflowId);
    assert.deepEqual(moved.view, { status: 'scheduled', at: later.toISOString(), deployTarget: 'production' });
    await sleep(3_500);
    assert.equal((await itemRow(id)).status, 'draft', 'the old time passed without a publish');
    assert.equal((await first.handle.query(scheduleQuery)).at, later.toISOString());
    const result = await resultOf(moved);
    assert.equal(result.outcome, 'published');
    assert.equal(result.at, later.toISOString());
    assert.ok(Date.parse(result.publishedAt!) >= later.getTime());
  });

  it('cancel ends the run without publishing', async () => {
    const id = await newLinkedItem(pw);
    const armed = await arm(pw, id, inSeconds(3));
    const mark = publishCalls(pw).length;
    const view = await armed.handle.executeUpdate(cancelUpdate);
    assert.equal(view.status, 'cancelled');
    const result = await resultOf(armed);
    assert.equal(result.outcome, 'cancelled');
    await sleep(3_000);
    assert.equal(publishCalls(pw).length, mark);
    assert.equal((await itemRow(id)).status, 'draft');
  });

  it('the validator refuses a time in the past (ScheduleInPast) without touching history; a closed run refuses with ScheduleNotWaiting', async () => {
    const id = await newLinkedItem(pw);
    const armed = await arm(pw, id, inSeconds(30));
    const before = (await armed.handle.fetchHistory()).events!.length;
    const past = await refusal(
      armed.handle.executeUpdate(rescheduleUpdate, {
        args: [{ at: new Date(Date.now() - 1_000).toISOString(), deployTarget: 'production', projectId: pw.t.projectId }],
      }),
    );
    assert.equal(past.type, SCHEDULE_IN_PAST);

    // The held schedule is a job of the account: GET /api/jobs/{id} shows it waiting; another account's is 404.
    const job = await call('GET', jobUrl(armed.workflowId), { token: pw.t.account.ownerToken });
    assert.equal(job.status, 200, job.text);
    assert.deepEqual([job.body.kind, job.body.status, job.body.progress?.phase], ['content-publish', 'running', 'waiting']);
    const stranger = await newAccount('Stranger');
    assert.equal((await call('GET', jobUrl(armed.workflowId), { token: stranger.ownerToken })).status, 404);
    assert.equal((await armed.handle.fetchHistory()).events!.length, before, 'a refused update writes no event');
    assert.equal((await armed.handle.query(scheduleQuery)).status, 'scheduled');

    await armed.handle.executeUpdate(cancelUpdate);
    assert.equal((await resultOf(armed)).outcome, 'cancelled');
  });

  it('a row that holds a different date (not armed by this run) is superseded: nothing is published', async () => {
    const id = await newLinkedItem(pw);
    const armed = await arm(pw, id, inSeconds(2));
    // The write that armed it rolled back: the row kept its own, unarmed, date.
    await harness()
      .db('content_items')
      .where({ id })
      .update({ scheduled_publish_at: inSeconds(3600), schedule_executes: false });
    const mark = publishCalls(pw).length;
    const result = await resultOf(armed);
    assert.equal(result.outcome, 'superseded');
    assert.equal(publishCalls(pw).length, mark);
    const row = await itemRow(id);
    assert.equal(row.status, 'draft');
    assert.ok(row.scheduled_publish_at, 'the row keeps its date');
  });

  it("a row that holds another armed date is adopted: the run waits for the row's date and publishes then", async () => {
    const id = await newLinkedItem(pw);
    const armed = await arm(pw, id, inSeconds(2));
    const rowDate = inSeconds(5);
    await harness().db('content_items').where({ id }).update({ scheduled_publish_at: rowDate });
    const result = await resultOf(armed);
    assert.equal(result.outcome, 'published');
    assert.equal(result.at, rowDate.toISOString());
    assert.ok(Date.parse(result.publishedAt!) >= rowDate.getTime());
  });

  it('an item deleted before its time ends the run `gone`, nothing published', async () => {
    const id = await newLinkedItem(pw);
    const armed = await arm(pw, id, inSeconds(2));
    const mark = publishCalls(pw).length;
    await harness().db('content_items').where({ id }).delete();
    assert.equal((await resultOf(armed)).outcome, 'gone');
    assert.equal(publishCalls(pw).length, mark);
  });

  it('while the publish runs (a platform timeout being retried) a reschedule or cancel is refused with ScheduleNotWaiting', async () => {
    const id = await newLinkedItem(pw);
    pw.world.sim.injectFault({ kind: 'timeout', path: `/collections/${pw.collectionId}/items/publish`, times: 1 });
    try {
      const armed = await arm(pw, id, inSeconds(1));
      await sleep(2_000);
      assert.equal((await armed.handle.query(scheduleQuery)).status, 'publishing');
      const refused = await refusal(armed.handle.executeUpdate(cancelUpdate));
      assert.equal(refused.type, SCHEDULE_NOT_WAITING);
      const result = await resultOf(armed, 30_000);
      assert.equal(result.outcome, 'published', JSON.stringify(result));
    } finally {
      pw.world.sim.clearFaults();
    }
  });

  it('a run continues as new after its reschedules (maxReschedulesPerRun), carrying the date and search attributes, and publishes at the last date', async () => {
    const id = await newLinkedItem(pw);
    const first = await arm(pw, id, inSeconds(30), { maxReschedulesPerRun: 2 });
    const { runId: firstRun } = await first.handle.describe();
    await arm(pw, id, inSeconds(20));
    const last = inSeconds(3);
    await arm(pw, id, last);
    const result = await resultOf(first);
    assert.equal(result.outcome, 'published');
    assert.equal(result.at, last.toISOString());
    const now = await first.handle.describe();
    assert.notEqual(now.runId, firstRun, 'a new run holds the date');
    assert.equal(now.typedSearchAttributes.get(ContentIdKey), id);
    assert.equal(now.typedSearchAttributes.get(ProjectIdKey), pw.t.projectId);
    assert.equal(now.typedSearchAttributes.get(JobKindKey), 'content-publish');
    const publishes = (await auditRows(pw.t.account.accountId)).filter((a) => a.actor === `workflow:${first.workflowId}:${now.runId}`);
    assert.equal(publishes.filter((a) => a.action === 'platform.cms_item_publish').length, 1);
  });
});
