import assert from 'node:assert/strict';
import { OPERATIONS } from '../../../src/sitePlatform/registry';
import { extendedWorld, type ExtendedWorld } from './extended';

describe('site platform simulator: every registry operation is routed', () => {
  let w: ExtendedWorld;
  before(async () => {
    w = await extendedWorld({ enterprise: true, ecommerce: true });
    w.sim.liftRateLimit();
  });
  after(() => w.sim.stop());

  it('each platform method and path answers from a route (never an unknown-route 404 or a 405)', async () => {
    const platformOps = OPERATIONS.filter((op) => op.platform !== null);
    assert.equal(platformOps.length, 110);
    const unrouted: string[] = [];
    for (const op of platformOps) {
      const { method, base, path } = op.platform!;
      // A collection delete gets a scratch collection so the later CMS operations still reach the seeded one.
      const collectionId = op.name === 'cms_collection_delete' ? w.sim.addCollection(w.site.id, { displayName: 'Scratch' }).id : w.blog.id;
      const filled = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        name === 'site_id' ? w.site.id : name === 'collection_id' ? collectionId : '0'.repeat(24),
      );
      const res = await w.call(base, filled, { method, token: w.oauthToken, body: method === 'GET' ? undefined : {} });
      const body = res.status === 204 ? {} : ((await res.json()) as { code?: string; message?: string });
      if (res.status === 405 || (res.status === 404 && body.message === 'Route not found'))
        unrouted.push(`${op.name} ${method} /${base}${path} → ${res.status}`);
      if (res.status === 404)
        assert.ok(body.code && body.code !== 'collection_not_found', `${op.name}: a 404 is a resource 404 with the platform error body`);
    }
    assert.deepEqual(unrouted, []);
  });
});
