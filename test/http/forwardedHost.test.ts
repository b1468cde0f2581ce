import assert from 'node:assert/strict';
import { z } from 'zod';
import type { TrustProxy } from '../../src/http/trustProxy';
import { route } from '../../src/http/route';
import { startPrivateApp, type PrivateApp } from '../helpers/privateApp';

/** What the app takes as its own origin and the client's address, as a handler sees them. */
const originProbe = route(
  {
    method: 'get',
    path: '/test/forwarded-origin',
    operationId: 'testForwardedOrigin',
    summary: 'test probe',
    tags: ['test'],
    auth: { kind: 'none' },
    responses: { 200: { description: 'ok', schema: z.object({ origin: z.string(), ip: z.string() }) } },
  },
  async ({ ctx }) => ({ body: { origin: `${ctx.protocol}://${ctx.host}`, ip: ctx.ip } }),
);

const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'app.example', 'x-forwarded-for': '203.0.113.7' };

describe('X-Forwarded-Proto and X-Forwarded-Host count only from a trusted proxy (TRUST_PROXY), like X-Forwarded-For', () => {
  const apps: PrivateApp[] = [];
  const seenBy = async (trust: TrustProxy) => {
    const app = await startPrivateApp([originProbe], { config: { TRUST_PROXY: trust } });
    apps.push(app);
    const res = await app.call('GET', '/test/forwarded-origin', { headers: FORWARDED });
    assert.equal(res.status, 200, res.text);
    return { ...res.body, own: app.baseUrl };
  };
  after(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  it("off: the request's own origin and the socket peer", async () => {
    const seen = await seenBy(false);
    assert.deepEqual([seen.origin, seen.ip], [seen.own, '127.0.0.1']);
  });

  it('a proxy list without the peer: the forwarding headers are ignored', async () => {
    const seen = await seenBy({ proxies: ['10.0.0.0/8'] });
    assert.deepEqual([seen.origin, seen.ip], [seen.own, '127.0.0.1']);
  });

  it('a proxy list holding the peer, or a hop count: the forwarded origin and client', async () => {
    for (const trust of [{ proxies: ['127.0.0.0/8'] }, { hops: 1 }]) {
      const seen = await seenBy(trust);
      assert.deepEqual([seen.origin, seen.ip], ['https://app.example', '203.0.113.7'], JSON.stringify(trust));
    }
  });
});
