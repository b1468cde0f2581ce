import assert from 'node:assert/strict';
import { world, type World } from './fixtures';

interface SiteBody {
  id: string;
  workspaceId: string;
  customDomains: Array<{ id: string; url: string }>;
  locales: { primary: { tag: string; id: string }; secondary: Array<{ tag: string; subdirectory: string }> };
}

describe('site platform simulator: sites and publish', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(() => w.sim.stop());

  it('get site shows primary and secondary locales and custom domains', async () => {
    const site = (await (await w.api(`/sites/${w.site.id}`)).json()) as SiteBody;
    assert.equal(site.workspaceId, 'ws-maple');
    assert.equal(site.locales.primary.tag, 'en');
    assert.deepEqual(
      site.locales.secondary.map((l) => [l.tag, l.subdirectory]),
      [['fr', 'fr']],
    );
    assert.deepEqual(
      site.customDomains.map((d) => d.url),
      ['www.maple.test'],
    );
    assert.equal('plan' in site, false, 'internal fields stay internal');
  });

  it('list sites returns only the sites the token was granted', async () => {
    const other = w.sim.addSite({ displayName: 'Other' });
    const token = w.sim.issueToken({ scopes: ['sites:read'], siteIds: [other.id] });
    const body = (await (await w.api('/sites', { token })).json()) as { sites: SiteBody[] };
    assert.deepEqual(
      body.sites.map((s) => s.id),
      [other.id],
    );
    const hidden = await w.api(`/sites/${w.site.id}`, { token });
    assert.equal(hidden.status, 404);
  });

  it('a second publish within a minute answers 429 with Retry-After; after the minute it succeeds', async () => {
    const domainId = w.site.customDomains[0].id;
    const first = await w.api(`/sites/${w.site.id}/publish`, { method: 'POST', body: { customDomains: [domainId] } });
    assert.equal(first.status, 202);
    const published = (await first.json()) as { customDomains: Array<{ id: string; lastPublished: string }> };
    assert.equal(published.customDomains[0].id, domainId);
    w.clock.advance(45_000);
    const second = await w.api(`/sites/${w.site.id}/publish`, { method: 'POST', body: { publishToWebflowSubdomain: true } });
    assert.equal(second.status, 429);
    assert.equal(second.headers.get('retry-after'), '15');
    assert.equal(((await second.json()) as { code: string }).code, 'too_many_requests');
    w.clock.advance(15_000);
    assert.equal((await w.api(`/sites/${w.site.id}/publish`, { method: 'POST', body: { publishToWebflowSubdomain: true } })).status, 202);
  });

  it('publish needs customDomains or publishToWebflowSubdomain, and a refused publish does not start the cooldown', async () => {
    const bad = await w.api(`/sites/${w.site.id}/publish`, { method: 'POST', body: {} });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { code: string }).code, 'validation_error');
    assert.equal((await w.api(`/sites/${w.site.id}/publish`, { method: 'POST', body: { publishToWebflowSubdomain: true } })).status, 202);
  });

  it('a site publish takes staged items live', async () => {
    const [item] = w.sim.addItems(w.blog.id, [{ fieldData: { name: 'Staged' } }]);
    assert.equal(w.sim.item(w.blog.id, item.id)?.lastPublished, null);
    await w.api(`/sites/${w.site.id}/publish`, { method: 'POST', body: { publishToWebflowSubdomain: true } });
    assert.notEqual(w.sim.item(w.blog.id, item.id)?.lastPublished, null);
  });
});
