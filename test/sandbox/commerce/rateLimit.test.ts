import assert from 'node:assert/strict';
import { installedSimulator } from './fixtures';

describe('commerce simulator: call limit', () => {
  it('reports the bucket in X-Commerce-Shop-Api-Call-Limit and answers 429 with Retry-After past it', async () => {
    const s = await installedSimulator({ bucketSize: 5, leakPerSecond: 2 });
    try {
      const headers: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await s.admin('/shop.json');
        assert.equal(res.status, 200);
        headers.push(res.headers.get('x-commerce-shop-api-call-limit')!);
      }
      assert.deepEqual(headers, ['1/5', '2/5', '3/5', '4/5', '5/5']);
      const throttled = await s.admin('/shop.json');
      assert.equal(throttled.status, 429);
      assert.equal(throttled.headers.get('x-commerce-shop-api-call-limit'), '5/5');
      assert.ok(Number(throttled.headers.get('retry-after')) >= 1);
      await new Promise((r) => setTimeout(r, 600));
      const leaked = await s.admin('/shop.json');
      assert.equal(leaked.status, 200, 'the bucket leaks 2 calls a second');
    } finally {
      await s.sim.stop();
    }
  });

  it('the default bucket holds 40', async () => {
    const s = await installedSimulator();
    try {
      const res = await s.admin('/shop.json');
      assert.equal(res.headers.get('x-commerce-shop-api-call-limit'), '1/40');
    } finally {
      await s.sim.stop();
    }
  });
});
