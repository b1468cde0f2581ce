import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { startSiteWorld, type SiteWorld } from '../connections/fixtures';
import { OPS, newTenant, platformCallsSince, query } from '../operations/fixtures';
import { burstUntilRefused } from './burst';

describe('doc2 Versioning', () => {
  let world: SiteWorld;
  before(async () => {
    world = await startSiteWorld();
  });
  after(async () => {
    await world.close();
  });

  it('rule 1: a beta operation goes to /beta and a v2 one to /v2, chosen per request', async () => {
    const t = await newTenant(world);
    const read = (action: string) =>
      world.app.call('GET', `${OPS}${query({ action, site_id: t.siteId, page_id: t.pageId })}`, { token: t.account.agentKey });
    const mark = world.sim.requests().length;
    for (const action of ['page_schema_get', 'page_get', 'page_schema_get']) assert.equal((await read(action)).status, 200, action);
    assert.deepEqual(platformCallsSince(world, mark), [
      `GET /beta/pages/${t.pageId}/schema-markup`,
      `GET /v2/pages/${t.pageId}`,
      `GET /beta/pages/${t.pageId}/schema-markup`,
    ]);
  });

  it('rule 1: "both draw on the same token bucket": once v2 reads spend the budget, a beta read is refused locally too', async () => {
    const t = await newTenant(world);
    const { res, sent } = await burstUntilRefused(world, t);
    assert.deepEqual([res.body.code, sent], ['rate_limited', false]);
    const mark = world.sim.requests().length;
    const beta = await world.app.call('GET', `${OPS}${query({ action: 'page_schema_get', site_id: t.siteId, page_id: t.pageId })}`, {
      token: t.account.agentKey,
    });
    assert.deepEqual([beta.status, beta.body.code, beta.body.upstreamStatus], [429, 'rate_limited', undefined]);
    assert.deepEqual(platformCallsSince(world, mark), []);
  });

  it('rule 2: on a single-locale site a beta JSON-LD write without localeId writes the primary locale', async () => {
    const t = await newTenant(world);
    const jsonLdSchema = { '@context': 'https://schema.org', '@type': 'Organization', name: 'Primary' };
    const mark = world.sim.requests().length;
    const res = await world.app.call('POST', OPS, {
      token: t.account.agentKey,
      body: { action: 'page_schema_update', site_id: t.siteId, page_id: t.pageId, jsonLdSchema },
    });
    assert.equal(res.status, 200, res.text);
    const [sent] = world.sim.requests().slice(mark);
    assert.deepEqual([sent.method, sent.path, sent.query], ['PUT', `/beta/pages/${t.pageId}/schema-markup`, '']);
    const read = await world.app.call('GET', `${OPS}${query({ action: 'page_schema_get', site_id: t.siteId, page_id: t.pageId })}`, {
      token: t.account.agentKey,
    });
    assert.ok(JSON.stringify(read.body.result).includes('"Primary"'), read.text);
  });

  it('rule 4: page:read and page:write from older grants are accepted for pages:read and pages:write', async () => {
    const t = await newTenant(world, { scopes: ['sites:read', 'page:read', 'page:write'] });
    const list = await world.app.call('GET', `${OPS}${query({ action: 'page_list', site_id: t.siteId })}`, { token: t.account.agentKey });
    assert.equal(list.status, 200, list.text);
    const seo = await world.app.call('POST', OPS, {
      token: t.account.agentKey,
      body: { action: 'page_metadata_update', site_id: t.siteId, page_id: t.pageId, title: 'Older grant' },
    });
    assert.equal(seo.status, 200, seo.text);
  });

  it('rule 5: token envelopes carry the marker v1 (access tokens and OAuth client secrets alike)', async () => {
    const t = await newTenant(world);
    await world.app.call('POST', '/api/site-platform/oauth-clients', {
      token: t.account.ownerToken,
      body: { client_id: `cid-${Date.now()}`, client_secret: 'a-client-secret' },
    });
    const { db } = harness();
    const [connection] = await db('site_platform_connections').where({ account_id: t.account.accountId });
    const [client] = await db('site_platform_oauth_clients').where({ account_id: t.account.accountId });
    for (const sealed of [connection.access_token_enc, client.client_secret_enc]) assert.match(sealed, /^v1:[^:]+:[^:]+:[^:]+$/);
    assert.ok(!client.client_secret_enc.includes('a-client-secret'));
  });
});
