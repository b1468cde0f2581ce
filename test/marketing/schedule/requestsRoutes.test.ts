import assert from 'node:assert/strict';
import { newAccount, newAgentKey } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { platformCallsSince } from '../../sitePlatform/operations/fixtures';
import { assertFieldError } from '../content/fixtures';
import { handleOf, heldBy, hoursAhead, itemRow, requestsOf, runOf, useRequestWorld, workflowIdOf, type RequestWorld } from './requestsKit';

describe('agent schedule sub-resource: POST|DELETE /api/agent/marketing/content/{id}/schedule', () => {
  let rw: RequestWorld;
  let r: ReturnType<typeof requestsOf>;
  useRequestWorld((world, requests) => {
    rw = world;
    r = requests;
  });

  it('POST schedules: 200 { data: scheduled_publish, item }, the workflow holds the date, a version is written', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    const versions = await r.versions(item.id);
    const at = hoursAhead(3);
    const res = await r.schedule(item.id, { scheduled_publish_at: at, deploy_target: 'publish' });
    assert.equal(res.status, 200, res.text);
    const expected = { at, status: 'scheduled', executes: true, deploy_target: 'publish', job_id: workflowIdOf(rw, item.id) };
    assert.deepEqual(res.body.data, expected);
    assert.equal(res.body.item.scheduled_publish_at, at);
    assert.equal(await r.versions(item.id), versions + 1);
    assert.deepEqual(await heldBy(rw, item.id), { status: 'scheduled', at, deployTarget: 'publish' });
    assert.deepEqual((await r.get(item.id)).body.scheduled_publish, expected);
  });

  it('POST the same instant again is an echo: 200 with the same schedule, no version, no workflow event', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    const at = hoursAhead(2);
    const first = await r.schedule(item.id, { scheduled_publish_at: at });
    const [versions, run] = [await r.versions(item.id), await runOf(rw, item.id)];
    const again = await r.schedule(item.id, { scheduled_publish_at: at });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body.data, first.body.data);
    assert.equal(await r.versions(item.id), versions);
    assert.deepEqual(await runOf(rw, item.id), run);
  });

  it('POST a new instant reschedules the workflow', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    await r.schedule(item.id, { scheduled_publish_at: hoursAhead(2) });
    const later = hoursAhead(5);
    const res = await r.schedule(item.id, { scheduled_publish_at: later });
    assert.equal(res.status, 200, res.text);
    assert.equal((await heldBy(rw, item.id)).at, later);
  });

  it('POST with deploy_target none records the date only: recorded_only, no job, no workflow', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    const at = hoursAhead(2);
    const res = await r.schedule(item.id, { scheduled_publish_at: at, deploy_target: 'none' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, { at, status: 'recorded_only', executes: false, deploy_target: 'none', job_id: null });
    assert.equal(await runOf(rw, item.id), null);
  });

  it('POST refusals: unlinked 409 not_linked, past 400, missing or unreadable instant 400', async () => {
    const unlinked = await r.create();
    const res = await r.schedule(unlinked.id, { scheduled_publish_at: hoursAhead() });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.code, 'not_linked');
    const linked = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    assertFieldError(
      await r.schedule(linked.id, { scheduled_publish_at: new Date(Date.now() - 1000).toISOString() }),
      'body.scheduled_publish_at',
    );
    assertFieldError(await r.schedule(linked.id, {}), 'body.scheduled_publish_at');
    assertFieldError(await r.schedule(linked.id, { scheduled_publish_at: 'tomorrow' }), 'body.scheduled_publish_at');
    assert.equal(await runOf(rw, linked.id), null);
  });

  it('POST on a platform-CMS item without an entry stages a draft; a collection field the item cannot fill is 422 and nothing is scheduled', async () => {
    const ok = await r.create({ cms_link: r.link() });
    const res = await r.schedule(ok.id, { scheduled_publish_at: hoursAhead(3) });
    assert.equal(res.status, 200, res.text);
    const entry = rw.world.sim.item(rw.collectionId, res.body.item.cms_link.item_id)!;
    assert.equal(entry.isDraft, true);
    assert.equal(entry.lastPublished, null);

    const noSlug = await r.create({ cms_link: r.link(), slug: null });
    const mark = rw.world.sim.requests().length;
    const refused = await r.schedule(noSlug.id, { scheduled_publish_at: hoursAhead(3) });
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.code, 'required_fields_unmapped');
    assert.deepEqual(refused.body.fields, ['slug']);
    assert.ok(!platformCallsSince(rw.world, mark).some((c) => c.startsWith('POST ')), 'no entry created');
    const row = await itemRow(noSlug.id);
    assert.deepEqual([row.scheduled_publish_at, row.schedule_executes], [null, false]);
  });

  it('DELETE cancels the workflow and clears the date; again it answers 200 the same way', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    const at = hoursAhead(2);
    await r.schedule(item.id, { scheduled_publish_at: at });
    const res = await r.unschedule(item.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data, null);
    assert.equal(res.body.item.scheduled_publish_at, null);
    assert.deepEqual(await handleOf(rw, item.id).result(), { outcome: 'cancelled', at });
    const versions = await r.versions(item.id);
    const again = await r.unschedule(item.id);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.data, null);
    assert.equal(await r.versions(item.id), versions);
  });

  it('DELETE of a recorded-only date clears it without Temporal', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    await r.schedule(item.id, { scheduled_publish_at: hoursAhead(2), deploy_target: 'none' });
    const res = await r.unschedule(item.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data, null);
    assert.equal(await runOf(rw, item.id), null);
  });

  it('a scheduled publish that failed stays on record: the agent get and DELETE report it as failed until a new schedule', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    const scheduledFor = new Date(Date.now() - 3_600_000).toISOString();
    const failedAt = new Date(Date.now() - 60_000);
    const error = {
      code: 'platform_upstream',
      message: 'the platform answered 503',
      scheduled_for: scheduledFor,
      job_id: workflowIdOf(rw, item.id),
    };
    await harness()
      .db('content_items')
      .where({ id: item.id })
      .update({ publish_failed_at: failedAt, publish_error: JSON.stringify(error) });
    const expected = {
      at: scheduledFor,
      status: 'failed',
      executes: false,
      deploy_target: 'production',
      job_id: workflowIdOf(rw, item.id),
      failed_at: failedAt.toISOString(),
      error: { code: 'platform_upstream', message: 'the platform answered 503' },
    };
    assert.deepEqual((await r.get(item.id)).body.scheduled_publish, expected);
    const res = await r.unschedule(item.id);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, expected);
    const at = hoursAhead(2);
    assert.equal((await r.schedule(item.id, { scheduled_publish_at: at })).body.data.status, 'scheduled');
  });

  it("needs marketing.content:update (403 for a read key); another account's item is 404 content_not_found", async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    const readKey = await newAgentKey(rw.t.account.accountId, ['marketing.content:read']);
    assert.equal((await r.schedule(item.id, { scheduled_publish_at: hoursAhead() }, readKey)).status, 403);
    assert.equal((await r.unschedule(item.id, readKey)).status, 403);
    const other = await newAccount('Other Co');
    for (const res of [
      await r.schedule(item.id, { scheduled_publish_at: hoursAhead() }, other.agentKey),
      await r.unschedule(item.id, other.agentKey),
    ]) {
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 'content_not_found');
    }
    assert.equal(await runOf(rw, item.id), null);
  });

  it('/openapi.json documents both operations with their error codes', async () => {
    const doc = (await r.call('GET', '/openapi.json')).body;
    const path = doc.paths['/api/agent/marketing/content/{contentId}/schedule'];
    assert.ok(path?.post && path?.delete);
    assert.match(path.post.responses['409'].description, /`schedule_publishing`/);
    assert.match(path.post.responses['503'].description, /`temporal_unavailable`/);
    assert.match(path.delete.responses['503'].description, /`temporal_unavailable`/);
  });
});
