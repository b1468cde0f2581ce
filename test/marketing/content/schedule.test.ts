import assert from 'node:assert/strict';
import type { TestAccount } from '../../helpers/accounts';
import type { CallOptions } from '../../helpers/http';
import { startSiteWorld, type SiteWorld } from '../../sitePlatform/connections/fixtures';
import { newTenant } from '../../sitePlatform/operations/fixtures';
import { assertFieldError, future, rowCounts, storedRow } from './fixtures';

describe('content schedule requests', () => {
  // A linked item needs a real link: a project bound to a connected simulator site and a collection on it.
  let world: SiteWorld;
  let acct: TestAccount;
  let cmsLink: { project_id: string; collection_id: string };
  before(async () => {
    world = await startSiteWorld();
    const tenant = await newTenant(world);
    acct = tenant.account;
    cmsLink = { project_id: tenant.projectId, collection_id: tenant.collectionId };
  });
  after(async () => {
    await world.close();
  });

  const call = (method: string, path: string, options?: CallOptions) => world.app.call(method, path, options);
  async function createItem(token: string, body: Record<string, unknown> = {}) {
    const res = await call('POST', '/api/marketing/content', { token, body: { title: 'Scheduled post', ...body } });
    assert.equal(res.status, 201, res.text);
    return res.body;
  }
  const put = (id: string, body: unknown) => call('PUT', `/api/marketing/content/${id}`, { token: acct.ownerToken, body });
  const patch = (id: string, body: unknown) => call('PATCH', `/api/agent/marketing/content/${id}`, { token: acct.agentKey, body });
  const versionCount = async (id: string) =>
    (await call('GET', `/api/marketing/content/${id}/versions`, { token: acct.ownerToken })).body.total;

  it('a schedule request on an item with no cms_link is 409 not_linked naming the link step, and nothing is written', async () => {
    const item = await createItem(acct.ownerToken);
    const counts = await rowCounts(acct.accountId);
    for (const res of [
      await put(item.id, { title: 'Changed', scheduled_publish_at: future() }),
      await patch(item.id, { scheduled_publish_at: future() }),
    ]) {
      assert.equal(res.status, 409, res.text);
      assert.equal(res.body.code, 'not_linked');
      assert.match(res.body.link_step, /cms_link/);
    }
    const row = await storedRow(item.id);
    assert.equal(row.scheduled_publish_at, null);
    assert.equal(row.title, item.title);
    assert.deepEqual(await rowCounts(acct.accountId), counts);
  });

  it('a schedule request on create without a cms_link is 409 not_linked and creates nothing', async () => {
    const counts = await rowCounts(acct.accountId);
    const res = await call('POST', '/api/agent/marketing/content', {
      token: acct.agentKey,
      body: { title: 'Soon', scheduled_publish_at: future() },
    });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.code, 'not_linked');
    assert.deepEqual(await rowCounts(acct.accountId), counts);
  });

  it('a linked item takes a future scheduled_publish_at, and the agent get reports it as scheduled_publish', async () => {
    const item = await createItem(acct.ownerToken, { cms_link: cmsLink });
    const at = future(5);
    const res = await patch(item.id, { scheduled_publish_at: at });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.scheduled_publish_at, at);
    const got = await call('GET', `/api/agent/marketing/content/${item.id}`, { token: acct.agentKey });
    assert.deepEqual(got.body.scheduled_publish, {
      at,
      status: 'scheduled',
      executes: true,
      deploy_target: 'production',
      job_id: `content-publish:${acct.accountId}:${item.id}`,
    });
  });

  it('a cms_link sent in the same request as the schedule counts as linked', async () => {
    const item = await createItem(acct.ownerToken);
    const res = await put(item.id, { cms_link: cmsLink, scheduled_publish_at: future() });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.cms_link, { ...cmsLink, item_id: null });
  });

  it('a scheduled_publish_at in the past is 400 when it changes', async () => {
    const item = await createItem(acct.ownerToken, { cms_link: cmsLink });
    assertFieldError(
      await put(item.id, { scheduled_publish_at: new Date(Date.now() - 60_000).toISOString() }),
      'body.scheduled_publish_at',
    );
    assert.equal((await storedRow(item.id)).scheduled_publish_at, null);
  });

  it('a scheduled_publish_at equal to the stored value is ignored (autosave echo): no 409, no version', async () => {
    const item = await createItem(acct.ownerToken, { cms_link: cmsLink });
    const scheduled = (await patch(item.id, { scheduled_publish_at: future(2) })).body;
    const versions = await versionCount(item.id);
    // The same instant in another zone is the same value; and an unlink in the same request is not a schedule request.
    const sameInstant = new Date(scheduled.scheduled_publish_at).toISOString().replace('Z', '+00:00');
    const echo = await put(item.id, { ...scheduled, scheduled_publish_at: sameInstant });
    assert.equal(echo.status, 200, echo.text);
    assert.equal(echo.body.updated_at, scheduled.updated_at);
    assert.equal(await versionCount(item.id), versions);
    const unlinked = await put(item.id, { cms_link: null, scheduled_publish_at: scheduled.scheduled_publish_at });
    assert.equal(unlinked.status, 200, unlinked.text);
  });

  it('scheduled_publish_at null leaves a schedule as it is (null never cancels)', async () => {
    const item = await createItem(acct.ownerToken, { cms_link: cmsLink });
    const at = future(4);
    await patch(item.id, { scheduled_publish_at: at });
    for (const res of [await put(item.id, { scheduled_publish_at: null }), await patch(item.id, { scheduled_publish_at: null })]) {
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.scheduled_publish_at, at);
    }
  });

  it('cancel_scheduled_publish true clears the schedule', async () => {
    const item = await createItem(acct.ownerToken, { cms_link: cmsLink });
    const scheduled = (await patch(item.id, { scheduled_publish_at: future() })).body;
    const res = await put(item.id, { ...scheduled, cancel_scheduled_publish: true });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.scheduled_publish_at, null);
    const got = await call('GET', `/api/agent/marketing/content/${item.id}`, { token: acct.agentKey });
    assert.equal(got.body.scheduled_publish, null);
  });

  it('cancel with a different new instant in the same request is 400', async () => {
    const item = await createItem(acct.ownerToken, { cms_link: cmsLink });
    assertFieldError(
      await patch(item.id, { cancel_scheduled_publish: true, scheduled_publish_at: future() }),
      'body.cancel_scheduled_publish',
    );
  });

  it('a scheduled_publish_at that is not an ISO 8601 timestamp is 400', async () => {
    const item = await createItem(acct.ownerToken, { cms_link: cmsLink });
    assertFieldError(await patch(item.id, { scheduled_publish_at: 'next tuesday' }), 'body.scheduled_publish_at');
  });
});
