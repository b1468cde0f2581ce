import assert from 'node:assert/strict';
import type { SiteWorld } from '../../sitePlatform/connections/fixtures';
import { OPS, newTenant, type Tenant } from '../../sitePlatform/operations/fixtures';

/** A tenant of the world whose project publishes to a `blog` collection of the platform CMS (content source switched). */
export async function blogTenant(world: SiteWorld): Promise<{ t: Tenant; collectionId: string }> {
  const t = await newTenant(world);
  const collectionId = world.sim.addCollection(t.siteId, {
    displayName: 'Blog Posts',
    slug: 'blog',
    singularName: 'Blog Post',
    fields: [
      { slug: 'post-body', type: 'RichText' },
      { slug: 'post-summary', type: 'PlainText' },
    ],
  }).id;
  const switched = await world.app.call('POST', OPS, {
    token: t.account.agentKey,
    body: { action: 'project_cms_provider_set', project_id: t.projectId, provider: 'site_platform', site_id: t.siteId, confirm: true },
  });
  assert.equal(switched.status, 200, switched.text);
  return { t, collectionId };
}
