import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { newAgentKey } from '../../helpers/accounts';
import { startSiteWorld, type SiteWorld } from '../../sitePlatform/connections/fixtures';
import { OPS, newTenant, platformCallsSince, type Tenant } from '../../sitePlatform/operations/fixtures';

const publishPath = (id: string) => `/api/agent/marketing/content/${id}/publish-to-site`;

describe('publish a content item to the site (doc1 publish-to-site; doc2 What the service does 7)', () => {
  let world: SiteWorld;
  let t: Tenant;
  let collectionId: string;
  before(async () => {
    world = await startSiteWorld();
    t = await newTenant(world);
    collectionId = world.sim.addCollection(t.siteId, {
      displayName: 'Blog Posts',
      singularName: 'Blog Post',
      fields: [
        { slug: 'post-body', type: 'RichText' },
        { slug: 'post-summary', type: 'PlainText' },
        { slug: 'main-image', type: 'Image' },
      ],
    }).id;
  });
  after(async () => {
    await world.close();
  });

  async function newItem(extra: Record<string, unknown> = {}) {
    const res = await world.app.call('POST', '/api/marketing/content', {
      token: t.account.ownerToken,
      body: {
        title: 'Heat pumps in old houses',
        slug: 'heat-pumps-old-houses',
        body: '<h2>Why</h2><p>Because.</p>',
        excerpt: 'A short guide.',
        cms_link: { project_id: t.projectId, collection_id: collectionId },
        ...extra,
      },
    });
    assert.equal(res.status, 201, res.text);
    return res.body.id as string;
  }
  const publish = (id: string, token = t.account.agentKey) => world.app.call('POST', publishPath(id), { token });
  const switchSource = (provider: 'native' | 'site_platform') =>
    world.app.call('POST', OPS, {
      token: t.account.agentKey,
      body: {
        action: 'project_cms_provider_set',
        project_id: t.projectId,
        provider,
        site_id: provider === 'native' ? undefined : t.siteId,
        confirm: true,
      },
    });

  it('publishing an item to the site is refused until the source is the platform CMS (409 content_source_native, nothing written)', async () => {
    const id = await newItem();
    const mark = world.sim.requests().length;
    const res = await publish(id);
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.code, 'content_source_native');
    assert.equal(res.body.fix_action, 'project_cms_provider_set');
    assert.deepEqual(platformCallsSince(world, mark), []);
    const row = await harness().db('content_items').where({ id }).first();
    assert.equal(row.status, 'draft');
    assert.equal(row.publish_failed_at, null);
  });

  it('with the platform CMS as source, the item is created in its collection, published live, stamped published, and the SEO check comes back as warnings and seo_check', async () => {
    assert.equal((await switchSource('site_platform')).status, 200);
    const id = await newItem();
    const res = await publish(id);
    assert.equal(res.status, 200, res.text);
    const { site_item: siteItem } = res.body;
    assert.equal(siteItem.created, true);
    assert.equal(siteItem.collection_id, collectionId);
    const platformItem = world.sim.item(collectionId, siteItem.item_id)!;
    assert.equal(platformItem.fieldData.name, 'Heat pumps in old houses');
    assert.equal(platformItem.fieldData.slug, 'heat-pumps-old-houses');
    assert.equal(platformItem.fieldData['post-body'], '<h2>Why</h2><p>Because.</p>');
    assert.equal(platformItem.fieldData['post-summary'], 'A short guide.');
    assert.ok(platformItem.lastPublished, 'the item is live');
    assert.equal(res.body.item.status, 'published');
    assert.ok(res.body.item.published_at);
    assert.equal(res.body.item.cms_link.item_id, siteItem.item_id);
    assert.ok(Array.isArray(res.body.warnings));
    assert.equal(res.body.warnings.length, res.body.seo_check.findings.length);
    assert.ok(res.body.warnings.length > 0, 'a short body has SEO findings');
    assert.equal(typeof res.body.seo_check.score, 'number');

    // The published entry's live URL reaches the agent get (url_source site_platform_cms) and the list.
    const got = await world.app.call('GET', `/api/agent/marketing/content/${id}`, { token: t.account.agentKey });
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.url_source, 'site_platform_cms');
    assert.match(got.body.url, /^https:\/\/[^/]+\/[^/]+\/heat-pumps-old-houses$/);
    const listed = await world.app.call('GET', '/api/agent/marketing/content?status=published', { token: t.account.agentKey });
    assert.equal(listed.body.data.find((i: { id: string }) => i.id === id)?.url, got.body.url);

    const edited = await world.app.call('PUT', `/api/marketing/content/${id}`, {
      token: t.account.ownerToken,
      body: { ...res.body.item, title: 'Heat pumps, revisited' },
    });
    assert.equal(edited.status, 200, edited.text);
    const again = await publish(id);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.site_item.created, false, 'a second publish updates the same platform item');
    assert.equal(again.body.site_item.item_id, siteItem.item_id);
    assert.equal(world.sim.item(collectionId, siteItem.item_id)!.fieldData.name, 'Heat pumps, revisited');
    assert.equal(again.body.item.published_at, res.body.item.published_at, 'the first publish date is kept');
  });

  it('an item with no cms_link is 409 not_linked naming the link step', async () => {
    const res = await world.app.call('POST', '/api/marketing/content', { token: t.account.ownerToken, body: { title: 'Unlinked' } });
    const answer = await publish(res.body.id);
    assert.equal(answer.status, 409);
    assert.equal(answer.body.code, 'not_linked');
    assert.ok(answer.body.link_step);
  });

  it('a platform failure answers the coded error and stamps publish_failed_at', async () => {
    const id = await newItem({ slug: 'fails-once' });
    world.sim.injectFault({ kind: '5xx', status: 500, path: /\/items$/, times: 1 });
    try {
      const res = await publish(id);
      assert.equal(res.status, 502, res.text);
      assert.equal(res.body.code, 'platform_upstream');
    } finally {
      world.sim.clearFaults();
    }
    const row = await harness().db('content_items').where({ id }).first();
    assert.ok(row.publish_failed_at);
    assert.equal(row.publish_error.code, 'platform_upstream');
    assert.equal(row.status, 'draft');
  });

  it("another account's item, or a malformed id, is 404 content_not_found", async () => {
    const id = await newItem({ slug: 'mine' });
    const other = await newTenant(world);
    const foreign = await publish(id, other.account.agentKey);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'content_not_found');
    assert.equal((await publish('not-a-uuid')).status, 404);
  });

  it('needs marketing.content:update', async () => {
    const id = await newItem({ slug: 'perm' });
    const readOnly = await newAgentKey(t.account.accountId, ['marketing.content:read']);
    const res = await publish(id, readOnly);
    assert.equal(res.status, 403, res.text);
  });
});
