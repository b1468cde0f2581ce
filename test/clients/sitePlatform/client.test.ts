import assert from 'node:assert/strict';
import { world, rejectsWith, type World } from './fixtures';

describe('site platform client: requests', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(() => w.sim.stop());

  it('chooses the base per request: v2, beta and root on one client', async () => {
    const client = w.client();
    assert.equal((await client.request({ method: 'GET', path: '/sites', base: 'v2' })).status, 200);
    assert.equal((await client.request({ method: 'GET', path: '/sites', base: 'beta' })).status, 200);
    assert.equal((await client.request({ method: 'GET', path: '/token/introspect', base: 'root' })).status, 200);
    assert.equal((await client.request({ method: 'GET', path: '/sites', base: 'v2' })).status, 200);
    assert.deepEqual(
      w.sim.requests().map((r) => r.path),
      ['/v2/sites', '/beta/sites', '/token/introspect', '/v2/sites'],
    );
  });

  it('sends query values, skipping undefined ones, and JSON bodies', async () => {
    const client = w.client();
    const res = await client.request<{ items: unknown[]; pagination: { limit: number; offset: number } }>({
      method: 'GET',
      path: `/collections/${w.blog.id}/items`,
      base: 'v2',
      query: { limit: 1, offset: 1, cmsLocaleId: undefined },
    });
    assert.deepEqual([res.body.items.length, res.body.pagination.limit, res.body.pagination.offset], [1, 1, 1]);
    assert.equal(w.sim.requests().at(-1)!.query, 'limit=1&offset=1');
    const created = await client.request<{ fieldData: { slug: string } }>({
      method: 'POST',
      path: `/collections/${w.blog.id}/items`,
      base: 'v2',
      body: { fieldData: { name: 'Hello', slug: 'hello' } },
    });
    assert.deepEqual([created.status, created.body.fieldData.slug], [202, 'hello']);
    assert.equal(res.headers['x-ratelimit-limit'], '60');
  });

  it('refuses a path with a query, a fragment or .. segments before sending', async () => {
    const client = w.client();
    await rejectsWith(client.request({ method: 'GET', path: '/sites?x=1', base: 'v2' }), 400, 'invalid_platform_request');
    await rejectsWith(client.request({ method: 'GET', path: '/sites/../token/introspect', base: 'v2' }), 400, 'invalid_platform_request');
    await rejectsWith(client.request({ method: 'GET', path: 'sites', base: 'v2' }), 400, 'invalid_platform_request');
    assert.equal(w.sim.requests().length, 0);
  });

  it('introspect, authorizedBy and listSites read the token, its user and its sites', async () => {
    const client = w.client();
    const info = await client.introspect();
    assert.deepEqual(info.scopes, [
      'sites:read',
      'sites:write',
      'pages:read',
      'pages:write',
      'cms:read',
      'cms:write',
      'authorized_user:read',
    ]);
    assert.equal(info.rateLimitPerMinute, 60);
    assert.deepEqual(info.authorizedTo, { siteIds: [w.site.id], workspaceIds: ['ws-maple'], userIds: [] });
    assert.equal(info.application, undefined);
    const sites = await client.listSites();
    assert.deepEqual(
      sites.map((s) => [s.id, s.displayName, s.workspaceId, s.customDomains.map((d) => d.url)]),
      [[w.site.id, 'Maple Studio', 'ws-maple', ['www.maple.test']]],
    );
    assert.equal(sites[0].locales.primary?.tag, 'en');
    // A pasted site token has no authorizing user: the platform refuses with 403.
    await rejectsWith(client.authorizedBy(), 403, 'platform_forbidden', w.token);
  });
});
