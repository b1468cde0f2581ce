import assert from 'node:assert/strict';
import { extendedWorld, type ExtendedWorld } from './extended';

describe('site platform simulator: Enterprise-only site configuration', () => {
  let w: ExtendedWorld;
  afterEach(() => w.sim.stop());

  it('a non-Enterprise site answers 402 not_enterprise_plan_site on redirects, robots.txt, well-known, llms.txt and the activity log', async () => {
    w = await extendedWorld();
    const s = `/sites/${w.site.id}`;
    const calls: Array<[string, string, 'v2' | 'beta']> = [
      ['GET', `${s}/redirects`, 'v2'],
      ['GET', `${s}/robots_txt`, 'v2'],
      ['PUT', `${s}/well_known`, 'v2'],
      ['GET', `${s}/llms_txt`, 'beta'],
      ['GET', `${s}/activity_logs`, 'v2'],
    ];
    for (const [method, path, base] of calls) {
      const res = await w.call(base, path, { method, body: method === 'GET' ? undefined : { fileName: 'x.txt', fileData: 'x' } });
      assert.equal(res.status, 402, path);
      assert.equal(((await res.json()) as { code: string }).code, 'not_enterprise_plan_site');
    }
  });

  it('on an Enterprise site redirects round-trip, robots.txt merges rules and the activity log records only events the platform logs (a publish, not a redirect or robots.txt write)', async () => {
    w = await extendedWorld({ enterprise: true });
    const s = `/sites/${w.site.id}`;
    const created = (await (await w.api(`${s}/redirects`, { method: 'POST', body: { fromUrl: '/old', toUrl: '/new' } })).json()) as {
      id: string;
    };
    await w.api(`${s}/redirects/${created.id}`, { method: 'PATCH', body: { toUrl: '/newer' } });
    assert.deepEqual(await (await w.api(`${s}/redirects`)).json(), { redirects: [{ id: created.id, fromUrl: '/old', toUrl: '/newer' }] });
    await w.api(`${s}/robots_txt`, { method: 'PUT', body: { rules: [{ userAgent: '*', disallows: ['/admin'] }] } });
    await w.api(`${s}/robots_txt`, {
      method: 'PATCH',
      body: {
        rules: [
          { userAgent: '*', disallows: ['/tmp'] },
          { userAgent: 'GPTBot', disallows: ['/'] },
        ],
      },
    });
    const robots = (await (await w.api(`${s}/robots_txt`)).json()) as { rules: Array<{ userAgent: string; disallows: string[] }> };
    assert.deepEqual(
      robots.rules.map((r) => [r.userAgent, r.disallows]),
      [
        ['*', ['/admin', '/tmp']],
        ['GPTBot', ['/']],
      ],
    );
    assert.equal((await w.api(`${s}/publish`, { method: 'POST', body: { publishToWebflowSubdomain: true } })).status, 202);
    const log = (await (await w.api(`${s}/activity_logs`)).json()) as { items: Array<{ event: string; resourceOperation: string }> };
    assert.deepEqual(
      log.items.map((i) => `${i.event}:${i.resourceOperation}`),
      ['site_published:PUBLISHED'],
    );
  });

  it('llms.txt is served on the beta base and its update is read back', async () => {
    w = await extendedWorld({ enterprise: true });
    const path = `/sites/${w.site.id}/llms_txt`;
    assert.equal((await w.call('beta', path, { method: 'PATCH', body: { content: '# Maple Studio' } })).status, 200);
    assert.deepEqual(await (await w.call('beta', path)).json(), { content: '# Maple Studio' });
  });
});
