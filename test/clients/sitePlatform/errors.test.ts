import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { createSitePlatformClient } from '../../../src/clients/sitePlatform';
import { sitePlatformErrors } from '../../../src/clients/sitePlatform/errors';
import { world, rejectsWith, type World } from './fixtures';

describe('site platform client: error mapping', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(() => w.sim.stop());

  it('a timeout answers 504 platform_timeout and is never retried, even on GET', async () => {
    w.sim.injectFault({ kind: 'timeout', path: '/v2/sites' });
    const client = w.client({ timeoutMs: 200 });
    const err = await rejectsWith(client.listSites(), 504, 'platform_timeout', w.token);
    assert.equal(err.extra.upstreamStatus, undefined);
    assert.equal(w.seen('/v2/sites').length, 1);
  });

  it('a platform 5xx answers 502 platform_upstream with upstreamStatus, not retried', async () => {
    w.sim.injectFault({ kind: '5xx', status: 503, path: '/v2/sites' });
    const err = await rejectsWith(w.client().listSites(), 502, 'platform_upstream', w.token);
    assert.equal(err.extra.upstreamStatus, 503);
    assert.equal(w.seen('/v2/sites').length, 1);
  });

  it('a malformed body answers 502 platform_upstream', async () => {
    w.sim.injectFault({ kind: 'malformed', path: `/v2/collections/${w.blog.id}/items` });
    const err = await rejectsWith(
      w.client().request({ method: 'GET', path: `/collections/${w.blog.id}/items`, base: 'v2' }),
      502,
      'platform_upstream',
      w.token,
    );
    assert.equal(err.extra.upstreamStatus, 200);
  });

  it('a network failure answers 502 platform_upstream without upstreamStatus', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const client = createSitePlatformClient({ apiUrl: `http://127.0.0.1:${port}`, token: w.token, timeoutMs: 1000 });
    const err = await rejectsWith(client.listSites(), 502, 'platform_upstream', w.token);
    assert.equal(err.extra.upstreamStatus, undefined);
  });

  it('a rejected token answers 401 platform_auth, and the token is not in the error', async () => {
    const bad = 'f'.repeat(64);
    const err = await rejectsWith(w.client({ token: bad }).listSites(), 401, 'platform_auth', bad);
    assert.equal(err.extra.upstreamStatus, 401);
  });

  it('404 keeps the platform not-found code: collection_not_found, item_not_found, resource_not_found', async () => {
    const client = w.client();
    const missingId = '0'.repeat(24);
    const a = await rejectsWith(
      client.request({ method: 'GET', path: `/collections/${missingId}`, base: 'v2' }),
      404,
      'collection_not_found',
    );
    await rejectsWith(
      client.request({ method: 'GET', path: `/collections/${w.blog.id}/items/${missingId}`, base: 'v2' }),
      404,
      'item_not_found',
    );
    await rejectsWith(client.request({ method: 'GET', path: `/sites/${missingId}`, base: 'v2' }), 404, 'resource_not_found');
    assert.equal(a.extra.upstreamStatus, 404);
  });

  it('409 from the platform answers 409 conflict', async () => {
    const client = w.client();
    const create = () =>
      client.request({
        method: 'POST',
        path: `/collections/${w.blog.id}/items`,
        base: 'v2',
        body: { fieldData: { name: 'Dup', slug: 'dup' } },
      });
    await create();
    const err = await rejectsWith(create(), 409, 'conflict');
    assert.equal(err.extra.upstreamStatus, 409);
  });

  it('400 from the platform answers 422 platform_validation with the field errors', async () => {
    const err = await rejectsWith(
      w.client().request({ method: 'GET', path: `/collections/${w.blog.id}/items`, base: 'v2', query: { limit: 101 } }),
      422,
      'platform_validation',
    );
    assert.equal(err.extra.upstreamStatus, 400);
    assert.ok((err.extra.errors ?? []).length > 0);
  });

  it('a missing scope on the platform answers 412 missing_scopes', async () => {
    const token = w.sim.issueToken({ scopes: ['sites:read'] });
    const err = await rejectsWith(
      w.client({ token }).request({ method: 'GET', path: `/collections/${w.blog.id}/items`, base: 'v2' }),
      412,
      'missing_scopes',
      token,
    );
    assert.equal(err.extra.upstreamStatus, 403);
  });
});

describe('site platform client: error table', () => {
  const map = (status: number, code: string) =>
    sitePlatformErrors.fromResponse('GET /v2/x', status, { code, message: 'm', externalReference: null, details: [] });

  it('402 answers not_enterprise_plan_site', () => {
    const err = map(402, 'not_enterprise_plan_site');
    assert.deepEqual([err.status, err.code, err.extra.upstreamStatus], [402, 'not_enterprise_plan_site', 402]);
  });

  it('409 keeps ecommerce_not_enabled and forms_require_republish; any other conflict is conflict', () => {
    assert.equal(map(409, 'ecommerce_not_enabled').code, 'ecommerce_not_enabled');
    assert.equal(map(409, 'forms_require_republish').code, 'forms_require_republish');
    assert.equal(map(409, 'duplicate_thing').code, 'conflict');
  });

  it('404 without a *_not_found code answers resource_not_found; 422 answers platform_validation', () => {
    assert.equal(map(404, 'weird').code, 'resource_not_found');
    assert.equal(map(404, 'page_not_found').code, 'page_not_found');
    assert.deepEqual([map(422, 'validation_error').status, map(422, 'validation_error').code], [422, 'platform_validation']);
  });

  it('other statuses answer 502 platform_upstream', () => {
    assert.deepEqual([map(405, 'method_not_allowed').status, map(405, 'method_not_allowed').code], [502, 'platform_upstream']);
    assert.equal(map(500, 'internal_error').code, 'platform_upstream');
  });
});
