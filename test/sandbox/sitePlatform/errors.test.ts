import assert from 'node:assert/strict';
import { world, type World } from './fixtures';

interface ErrorBody {
  code: string;
  message: string;
  externalReference: unknown;
  details: Array<{ param?: string; description: string }>;
}

async function errorOf(res: Response): Promise<ErrorBody> {
  const body = (await res.json()) as ErrorBody;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'externalReference', 'message']);
  assert.ok(Array.isArray(body.details));
  return body;
}

describe('site platform simulator: error bodies', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(() => w.sim.stop());

  it('a missing or unknown bearer token answers 401 not_authorized', async () => {
    const none = await fetch(`${w.sim.baseUrl}/v2/sites`);
    assert.equal(none.status, 401);
    assert.equal((await errorOf(none)).code, 'not_authorized');
    assert.equal((await errorOf(await w.api('/sites', { token: 'x'.repeat(64) }))).code, 'not_authorized');
  });

  it('an unknown site answers 404 resource_not_found', async () => {
    const res = await w.api('/sites/000000000000000000000000');
    assert.equal(res.status, 404);
    assert.equal((await errorOf(res)).code, 'resource_not_found');
  });

  it('an invalid body answers 400 validation_error naming the field', async () => {
    const res = await w.api(`/collections/${w.blog.id}/items`, { method: 'POST', body: { fieldData: { slug: 'Not A Slug' } } });
    assert.equal(res.status, 400);
    const body = await errorOf(res);
    assert.equal(body.code, 'validation_error');
    assert.ok(body.details.some((d) => d.param === 'fieldData.name'));
    assert.ok(body.details.some((d) => d.param === 'fieldData.slug'));
  });

  it('a scope never granted answers 403 missing_scopes; page:* scopes count as pages:*', async () => {
    const readOnly = w.sim.issueToken({ scopes: ['cms:read', 'page:read'] });
    const res = await w.api(`/collections/${w.blog.id}/items`, {
      token: readOnly,
      method: 'POST',
      body: { fieldData: { name: 'x', slug: 'x' } },
    });
    assert.equal(res.status, 403);
    assert.equal((await errorOf(res)).code, 'missing_scopes');
    assert.equal((await w.api(`/sites/${w.site.id}/pages`, { token: readOnly })).status, 200);
  });

  it('beta paths are served like v2', async () => {
    const res = await fetch(`${w.sim.baseUrl}/beta/sites/${w.site.id}`, { headers: { authorization: `Bearer ${w.token}` } });
    assert.equal(res.status, 200);
  });
});
