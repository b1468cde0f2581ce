import assert from 'node:assert/strict';
import { AccountIdKey, ContentIdKey, JobKindKey, ProjectIdKey } from '../../../src/temporal/searchAttributes';
import { eventually } from '../../jobs/jobTestKit';
import { auditRows, platformCallsSince } from '../../sitePlatform/operations/fixtures';
import { assertFieldError } from '../content/fixtures';
import { handleOf, heldBy, hoursAhead, itemRow, requestsOf, runOf, useRequestWorld, workflowIdOf, type RequestWorld } from './requestsKit';

describe('schedule requests (doc1 States and transitions): the item row mirrors its content-publish workflow', () => {
  let rw: RequestWorld;
  let r: ReturnType<typeof requestsOf>;
  useRequestWorld((world, requests) => {
    rw = world;
    r = requests;
  });

  const itemCreates = (mark: number) => platformCallsSince(rw.world, mark).filter((c) => /^POST \/v2\/collections\/[^/]+\/items$/.test(c));

  it('not linked: a schedule request is 409 not_linked naming the link step; no workflow, nothing written', async () => {
    const item = await r.create();
    const res = await r.patch(item.id, { scheduled_publish_at: hoursAhead() });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.code, 'not_linked');
    assert.match(res.body.link_step, /cms_link/);
    assert.equal(await runOf(rw, item.id), null);
    const row = await itemRow(item.id);
    assert.deepEqual([row.scheduled_publish_at, row.schedule_executes], [null, false]);
  });

  it('linked, no site entry (platform CMS): the entry is created as a draft, its id stamped, and the workflow holds the date', async () => {
    const item = await r.create({ cms_link: r.link() });
    const at = hoursAhead(3);
    const mark = rw.world.sim.requests().length;
    const res = await r.patch(item.id, { scheduled_publish_at: at });
    assert.equal(res.status, 200, res.text);

    const entryId = res.body.cms_link.item_id;
    assert.ok(entryId, 'the staged entry id is on the link');
    assert.equal(itemCreates(mark).length, 1);
    // Nothing goes live early: the entry is a draft that was never published.
    const entry = rw.world.sim.item(rw.collectionId, entryId)!;
    assert.equal(entry.isDraft, true);
    assert.equal(entry.lastPublished, null);
    assert.equal(entry.fieldData.slug, item.slug);
    assert.ok(!platformCallsSince(rw.world, mark).some((c) => c.includes('/publish')), 'no publish call');
    const audit = (await auditRows(rw.t.account.accountId)).filter((a) => a.action === 'platform.cms_item_create');
    assert.match(audit.at(-1)!.actor, /^agent:/);

    const row = await itemRow(item.id);
    assert.equal(row.schedule_executes, true);
    assert.equal(row.scheduled_publish_at.toISOString(), at);
    assert.equal(row.status, 'draft');
    assert.deepEqual(await heldBy(rw, item.id), { status: 'scheduled', at, deployTarget: 'production' });

    const d = await handleOf(rw, item.id).describe();
    assert.equal(d.status.name, 'RUNNING');
    assert.equal(d.typedSearchAttributes.get(AccountIdKey), rw.t.account.accountId);
    assert.equal(d.typedSearchAttributes.get(JobKindKey), 'content-publish');
    assert.equal(d.typedSearchAttributes.get(ContentIdKey), item.id);
    assert.equal(d.typedSearchAttributes.get(ProjectIdKey), rw.t.projectId);

    const listed = await eventually(
      () => r.call('GET', `/api/jobs?kind=content-publish&content_id=${item.id}`, { token: rw.t.account.ownerToken }),
      (res) => res.status === 200 && res.body.data.length === 1,
      10_000,
      'the workflow in GET /api/jobs',
    );
    assert.equal(listed.body.data[0].id, workflowIdOf(rw, item.id));
    const got = await r.get(item.id);
    assert.deepEqual(got.body.scheduled_publish, {
      at,
      status: 'scheduled',
      executes: true,
      deploy_target: 'production',
      job_id: workflowIdOf(rw, item.id),
    });
  });

  it('linked with a site entry: the workflow holds the date and no entry is created', async () => {
    const item = await r.create({ cms_link: { project_id: rw.t.projectId, collection_id: rw.t.collectionId, item_id: rw.t.itemIds[0] } });
    const mark = rw.world.sim.requests().length;
    const res = await r.put(item.id, { scheduled_publish_at: hoursAhead(4) });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(itemCreates(mark), []);
    assert.equal(res.body.cms_link.item_id, rw.t.itemIds[0]);
    assert.equal((await runOf(rw, item.id))?.status, 'RUNNING');
  });

  it('linked to a native-CMS project: the workflow holds the date and the platform is not called', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    const mark = rw.world.sim.requests().length;
    const res = await r.patch(item.id, { scheduled_publish_at: hoursAhead(2), deploy_target: 'staging' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(itemCreates(mark), []);
    assert.equal(res.body.cms_link.item_id, null);
    assert.equal((await heldBy(rw, item.id)).deployTarget, 'staging');
  });

  it('a create that carries a schedule starts the workflow with the new item', async () => {
    const at = hoursAhead(5);
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId), scheduled_publish_at: at });
    assert.equal((await itemRow(item.id)).schedule_executes, true);
    assert.equal((await heldBy(rw, item.id)).at, at);
  });

  it('a reschedule moves the date the workflow holds (same run)', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    await r.patch(item.id, { scheduled_publish_at: hoursAhead(3) });
    const { runId } = await handleOf(rw, item.id).describe();
    const later = hoursAhead(6);
    const res = await r.put(item.id, { scheduled_publish_at: later });
    assert.equal(res.status, 200, res.text);
    assert.equal((await heldBy(rw, item.id)).at, later);
    assert.equal((await handleOf(rw, item.id).describe()).runId, runId);
    assert.equal((await itemRow(item.id)).scheduled_publish_at.toISOString(), later);
  });

  it('cancel_scheduled_publish true cancels: the workflow ends cancelled, the date is cleared', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    const scheduled = (await r.patch(item.id, { scheduled_publish_at: hoursAhead() })).body;
    const res = await r.put(item.id, { ...scheduled, cancel_scheduled_publish: true });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.scheduled_publish_at, null);
    assert.deepEqual(await handleOf(rw, item.id).result(), { outcome: 'cancelled', at: scheduled.scheduled_publish_at });
    assert.equal((await itemRow(item.id)).schedule_executes, false);
    assert.equal((await r.get(item.id)).body.scheduled_publish, null);
    // Cancelling again finds no open run: fine, nothing changes.
    const again = await r.patch(item.id, { cancel_scheduled_publish: true });
    assert.equal(again.status, 200, again.text);
  });

  it('echo ignored: the same instant (any zone) adds no workflow history event and no version', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    const scheduled = (await r.patch(item.id, { scheduled_publish_at: hoursAhead() })).body;
    const before = await runOf(rw, item.id);
    const versions = await r.versions(item.id);
    const sameInstant = scheduled.scheduled_publish_at.replace('Z', '+00:00');
    const echo = await r.put(item.id, { ...scheduled, scheduled_publish_at: sameInstant });
    assert.equal(echo.status, 200, echo.text);
    assert.equal(echo.body.updated_at, scheduled.updated_at);
    assert.equal(await r.versions(item.id), versions);
    assert.deepEqual(await runOf(rw, item.id), before);
  });

  it('null never cancels: the workflow keeps the date', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    const at = hoursAhead(4);
    await r.patch(item.id, { scheduled_publish_at: at });
    for (const res of [await r.put(item.id, { scheduled_publish_at: null }), await r.patch(item.id, { scheduled_publish_at: null })]) {
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.scheduled_publish_at, at);
    }
    assert.deepEqual(await heldBy(rw, item.id), { status: 'scheduled', at, deployTarget: 'production' });
  });

  it('a time in the past is 400: nothing written, the held date unchanged', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    const at = hoursAhead(2);
    await r.patch(item.id, { scheduled_publish_at: at });
    const before = await runOf(rw, item.id);
    assertFieldError(
      await r.put(item.id, { scheduled_publish_at: new Date(Date.now() - 60_000).toISOString() }),
      'body.scheduled_publish_at',
    );
    assert.equal((await itemRow(item.id)).scheduled_publish_at.toISOString(), at);
    assert.deepEqual(await runOf(rw, item.id), before);
  });

  it('deploy_target none while held cancels and keeps the date recorded only; back from none arms again', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    const at = hoursAhead(3);
    await r.patch(item.id, { scheduled_publish_at: at });
    const none = await r.patch(item.id, { deploy_target: 'none' });
    assert.equal(none.status, 200, none.text);
    assert.equal(none.body.scheduled_publish_at, at);
    assert.equal((await handleOf(rw, item.id).result()).outcome, 'cancelled');
    assert.equal((await r.get(item.id)).body.scheduled_publish.status, 'recorded_only');
    assert.equal((await itemRow(item.id)).schedule_executes, false);

    const back = await r.patch(item.id, { deploy_target: 'dev' });
    assert.equal(back.status, 200, back.text);
    assert.equal((await runOf(rw, item.id))?.status, 'RUNNING');
    assert.deepEqual(await heldBy(rw, item.id), { status: 'scheduled', at, deployTarget: 'dev' });
    assert.equal((await itemRow(item.id)).schedule_executes, true);
  });

  it('unlinking while held cancels and keeps the date recorded only', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    const at = hoursAhead(3);
    await r.patch(item.id, { scheduled_publish_at: at });
    const res = await r.put(item.id, { cms_link: null });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.scheduled_publish_at, at);
    assert.equal((await handleOf(rw, item.id).result()).outcome, 'cancelled');
    const got = (await r.get(item.id)).body.scheduled_publish;
    assert.deepEqual([got.status, got.executes, got.job_id], ['recorded_only', false, null]);
  });

  it('an edit that leaves the schedule alone does not touch the workflow', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    await r.patch(item.id, { scheduled_publish_at: hoursAhead(3) });
    const before = await runOf(rw, item.id);
    const res = await r.patch(item.id, { title: 'Renamed', cms_link: r.link(rw.nativeProjectId) });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await runOf(rw, item.id), before);
  });

  it('deleting a scheduled item cancels its workflow', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    await r.patch(item.id, { scheduled_publish_at: hoursAhead(3) });
    const res = await r.call('DELETE', `/api/marketing/content/${item.id}`, { token: rw.t.account.ownerToken });
    assert.equal(res.status, 204, res.text);
    assert.equal((await handleOf(rw, item.id).result()).outcome, 'cancelled');
  });
});
