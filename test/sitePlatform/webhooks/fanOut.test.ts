import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { listIndexedPages } from '../../../src/sitePlatform/webhooks/pageIndexStore';
import { FAN_OUT_MAX_PROJECTS } from '../../../src/sitePlatform/webhooks/fanOut';
import { entityJobId } from '../../../src/temporal/jobIds';
import { sitePlatformEventsContract } from '../../../workflows/sitePlatformEvents.contract';
import { jobSearchAttributes } from '../../../src/temporal/jobs';
import { progressQuery } from '../../../workflows/progress.contract';
import { harness } from '../../helpers/harness';
import {
  addSimSite,
  bindProject,
  bodyEventId,
  deliver,
  envelope,
  fannedOut,
  newConnection,
  startReceiverWorld,
  type ReceiverWorld,
} from './receiverKit';

/** Starts the site's workflow the way the relay does, with a per-run bound of 2 events. */
async function startJobLike(workflowId: string, accountId: string, siteId: string, taskQueue: string) {
  await harness().client.workflow.start(sitePlatformEventsContract.workflowType, {
    workflowId,
    taskQueue,
    // One event per pass, and a history bound the second pass of a run crosses: runs continue as new often.
    args: [{ accountId, siteId, batch: 1, passBudgetMs: 0, historyEventsPerRun: 12 }],
    typedSearchAttributes: jobSearchAttributes(sitePlatformEventsContract.jobKind, accountId),
  });
}

async function deliverAndFanOut(
  rw: ReceiverWorld,
  c: Awaited<ReturnType<typeof newConnection>>,
  triggerType: string,
  payload: Record<string, unknown>,
) {
  const raw = JSON.stringify(envelope(triggerType, payload));
  const res = await deliver(rw, c, raw);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { received: true });
  return fannedOut(c.accountId, payload.siteId as string, bodyEventId(triggerType, raw));
}

describe('site platform event fan-out', () => {
  let rw: ReceiverWorld;
  before(async () => {
    rw = await startReceiverWorld();
  });
  after(async () => {
    await rw?.close();
  });

  it('a delivery reaches at most 50 projects bound to the site: with 51 bound, 50 are reached (oldest bindings) and 1 is over the cap', async () => {
    const c = await newConnection(rw, { authKind: 'site_token' });
    const siteId = c.siteIds[0];
    const bound: string[] = [];
    for (let i = 0; i < 51; i++) bound.push(await bindProject(c.accountId, siteId, i % 2 ? 'service_hosted' : 'platform_hosted'));
    // Not bound: another site, a disabled binding.
    await bindProject(c.accountId, addSimSite(rw), 'platform_hosted');
    const disabled = await bindProject(c.accountId, siteId, 'platform_hosted');
    await harness().db('site_platform_project_bindings').where({ project_id: disabled }).update({ override_mode: 'disabled' });

    const event = await deliverAndFanOut(rw, c, 'collection_item_changed', { siteId, id: 'item_1', collectionId: `col_${randomUUID()}` });
    assert.equal(FAN_OUT_MAX_PROJECTS, 50);
    assert.equal(event.fan_out.projects.length, 50);
    assert.equal(event.fan_out.over_cap, 1);
    assert.deepEqual(
      event.fan_out.projects.map((p: { project_id: string }) => p.project_id),
      bound.slice(0, 50),
    );
    assert.equal(event.fan_out.projects[0].binding, 'external');
    assert.equal(event.fan_out.projects[1].binding, 'cms_only');
  });

  it('cms_only (service-hosted) binding: a collection item event marks the CMS snapshots of the site and collection stale; pages are not indexed', async () => {
    const { db } = harness();
    const c = await newConnection(rw, { authKind: 'site_token' });
    const siteId = c.siteIds[0];
    await bindProject(c.accountId, siteId, 'service_hosted');
    const collectionId = `col_${randomUUID()}`;
    await db('site_platform_cms_snapshots').insert({
      account_id: c.accountId,
      site_id: siteId,
      kind: 'items',
      collection_id: collectionId,
      variant: 'v',
      body: JSON.stringify({ items: [] }),
      fetched_at: new Date(),
    });
    const event = await deliverAndFanOut(rw, c, 'collection_item_created', { siteId, id: 'item_2', collectionId });
    assert.equal(event.fan_out.snapshots_marked_stale, true);
    assert.deepEqual(
      event.fan_out.projects.map((p: { binding: string }) => p.binding),
      ['cms_only'],
    );
    assert.equal((await db('site_platform_cms_snapshots').where({ site_id: siteId })).length, 0);
    assert.ok(
      await db('site_platform_cms_stale_marks')
        .where({ scope: `collection:${collectionId}` })
        .first(),
    );
    const page = await deliverAndFanOut(rw, c, 'page_created', {
      siteId,
      pageId: `page_${randomUUID()}`,
      pageTitle: 'X',
      publishedPath: '/x',
    });
    assert.equal(page.fan_out.pages, undefined, 'a cms_only binding never indexes pages');
    assert.deepEqual(await listIndexedPages(db, c.accountId, siteId), []);
  });

  it('external (platform-hosted) binding: page events re-index the page, page_deleted marks it deleted, site_publish re-lists the site from the platform', async () => {
    const { db } = harness();
    const c = await newConnection(rw, { authKind: 'oauth' });
    const siteId = c.siteIds[0];
    await bindProject(c.accountId, siteId, 'platform_hosted');
    const pageId = `page_${randomUUID()}`;
    await deliverAndFanOut(rw, c, 'page_created', {
      siteId,
      pageId,
      pageTitle: 'Über uns',
      publishedPath: '/ueber-uns',
      createdOn: '2026-11-26T10:00:00Z',
    });
    assert.deepEqual(
      (await listIndexedPages(db, c.accountId, siteId)).map((p) => [p.pageId, p.title, p.publishedPath, p.deleted]),
      [[pageId, 'Über uns', '/ueber-uns', false]],
    );
    await deliverAndFanOut(rw, c, 'page_metadata_updated', { siteId, pageId, pageTitle: 'About us', publishedPath: '/about' });
    assert.equal((await listIndexedPages(db, c.accountId, siteId))[0].title, 'About us');
    await deliverAndFanOut(rw, c, 'page_deleted', { siteId, pageId, pageTitle: 'About us', publishedPath: '/about' });
    assert.equal((await listIndexedPages(db, c.accountId, siteId))[0].deleted, true);

    const home = rw.world.sim.addPage(siteId, { title: 'Home', slug: 'home' });
    const blog = rw.world.sim.addPage(siteId, { title: 'Blog', slug: 'blog' });
    const event = await deliverAndFanOut(rw, c, 'site_publish', { siteId, publishedOn: new Date().toISOString(), domains: [] });
    assert.equal(event.fan_out.snapshots_marked_stale, true);
    const live = (await listIndexedPages(db, c.accountId, siteId)).filter((p) => !p.deleted);
    assert.deepEqual(live.map((p) => p.pageId).sort(), [home.id, blog.id].sort());
    assert.equal(live.find((p) => p.pageId === blog.id)?.publishedPath, '/blog');
    assert.equal(event.fan_out.pages.indexed, live.length);
  });

  it('page events in any order: a page_created fanned out after the page_deleted that came later on the platform leaves the page deleted; a newer one brings it back', async () => {
    const { db } = harness();
    const c = await newConnection(rw, { authKind: 'oauth' });
    const siteId = c.siteIds[0];
    await bindProject(c.accountId, siteId, 'platform_hosted');
    const pageId = `page_${randomUUID()}`;
    const page = { siteId, pageId, pageTitle: 'About', publishedPath: '/about' };
    await deliverAndFanOut(rw, c, 'page_deleted', { ...page, deletedOn: '2026-11-26T10:00:01Z' });
    await deliverAndFanOut(rw, c, 'page_created', { ...page, createdOn: '2026-11-26T10:00:00Z' });
    assert.equal((await listIndexedPages(db, c.accountId, siteId))[0].deleted, true, 'the late page_created does not undelete it');
    await deliverAndFanOut(rw, c, 'page_created', { ...page, createdOn: '2026-11-26T11:00:00Z' });
    assert.equal((await listIndexedPages(db, c.accountId, siteId))[0].deleted, false, 'a page created after the deletion is live');
  });

  it("cross-account: an account's delivery reaches only its own projects bound to the site, never another account's binding of the same site", async () => {
    const shared = addSimSite(rw);
    const a = await newConnection(rw, { authKind: 'site_token', siteIds: [shared] });
    const b = await newConnection(rw, { authKind: 'site_token', siteIds: [shared] });
    const mine = await bindProject(a.accountId, shared, 'platform_hosted');
    await bindProject(b.accountId, shared, 'platform_hosted');
    const event = await deliverAndFanOut(rw, a, 'page_created', {
      siteId: shared,
      pageId: `page_${randomUUID()}`,
      pageTitle: 'A',
      publishedPath: '/a',
    });
    assert.deepEqual(
      event.fan_out.projects.map((p: { project_id: string }) => p.project_id),
      [mine],
    );
    assert.equal((await listIndexedPages(harness().db, b.accountId, shared)).length, 0);
  });

  it('a project whose resolution reaches no live connection holding the site is not bound: a grant that stopped reaching the site leaves the event with no projects', async () => {
    const c = await newConnection(rw, { authKind: 'site_token' });
    const siteId = c.siteIds[0];
    await bindProject(c.accountId, siteId, 'platform_hosted');
    const raw = JSON.stringify(envelope('comment_created', { siteId, threadId: randomUUID(), content: 'late' }));
    // Recorded while connected, fanned out after the grant stopped reaching the site.
    await rw.relay.stop();
    try {
      assert.equal((await deliver(rw, c, raw)).status, 200);
      await harness().db('site_platform_connection_sites').where({ connection_id: c.connectionId }).delete();
    } finally {
      rw.relay.start();
    }
    const event = await fannedOut(c.accountId, siteId, bodyEventId('comment_created', raw));
    assert.deepEqual(event.fan_out.projects, []);
  });

  it('the site workflow continues as new past its history bound, each new run fanning out what the last left, and keeps its search attributes', async () => {
    const c = await newConnection(rw, { authKind: 'site_token' });
    const siteId = c.siteIds[0];
    const { client } = harness();
    const workflowId = entityJobId(sitePlatformEventsContract.jobKind, c.accountId, siteId);
    await startJobLike(workflowId, c.accountId, siteId, rw.taskQueue);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const raw = JSON.stringify(envelope('comment_created', { siteId, threadId: randomUUID(), content: `n${i}` }));
      assert.equal((await deliver(rw, c, raw)).status, 200);
      ids.push(bodyEventId('comment_created', raw));
    }
    for (const id of ids) await fannedOut(c.accountId, siteId, id);
    const handle = client.workflow.getHandle(workflowId);
    const description = await handle.describe();
    const runs = [];
    for await (const run of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs.push(run);
    assert.ok(runs.length >= 2, `continued as new (${runs.length} runs)`);
    assert.equal(description.typedSearchAttributes.get({ name: 'AccountId', type: 'KEYWORD' } as never), c.accountId);
    assert.equal((await handle.query(progressQuery)).done, 5);
  });

  it("the site's workflow is one entity per (account, site), searchable by AccountId and JobKind, and answers the progress query", async () => {
    const c = await newConnection(rw, { authKind: 'site_token' });
    const siteId = c.siteIds[0];
    await deliverAndFanOut(rw, c, 'comment_created', { siteId, threadId: randomUUID(), content: 'one' });
    await deliverAndFanOut(rw, c, 'comment_created', { siteId, threadId: randomUUID(), content: 'two' });
    const handle = harness().client.workflow.getHandle(entityJobId(sitePlatformEventsContract.jobKind, c.accountId, siteId));
    const description = await handle.describe();
    assert.equal(description.taskQueue, rw.taskQueue);
    const attrs = description.typedSearchAttributes;
    assert.equal(attrs.get({ name: 'AccountId', type: 'KEYWORD' } as never), c.accountId);
    assert.equal(attrs.get({ name: 'JobKind', type: 'KEYWORD' } as never), 'site-platform-events');
    const progress = await handle.query(progressQuery);
    assert.equal(progress.done, 2);
  });
});
