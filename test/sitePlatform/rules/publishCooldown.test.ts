import assert from 'node:assert/strict';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { ALL_SCOPES, addSite, startSiteWorld, type SiteWorld } from '../connections/fixtures';
import { OPS } from '../operations/fixtures';

/**
 * doc2 Limits, site publish: one successful publish per site per minute. The site is the platform's, so the minute
 * is shared by every account that holds it (an agency and its client): a second publish from another account within
 * the minute is refused locally with 429 publish_cooldown, never sent to draw the platform's own 429.
 */
describe('doc2 Limits: one successful publish per site per minute, whichever account publishes', () => {
  let world: SiteWorld;
  before(async () => {
    world = await startSiteWorld();
  });
  after(async () => {
    await world.close();
  });

  async function holding(siteId: string): Promise<TestAccount> {
    const account = await newAccount();
    const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [siteId] });
    const res = await world.app.call('POST', '/api/site-platform/site-token', { token: account.ownerToken, body: { token } });
    assert.equal(res.status, 201, res.text);
    return account;
  }
  const publish = (account: TestAccount, siteId: string) =>
    world.app.call('POST', OPS, {
      token: account.agentKey,
      body: { action: 'site_publish', site_id: siteId, confirm: true, publishToWebflowSubdomain: true },
    });
  const publishCalls = (siteId: string) =>
    world.sim.requests().filter((r) => r.method === 'POST' && r.path.endsWith(`/sites/${siteId}/publish`)).length;

  it('a second publish of a shared site from another account within the minute is 429 publish_cooldown and never sent', async () => {
    const site = addSite(world, 'Shared').id;
    const agency = await holding(site);
    const client = await holding(site);
    const first = await publish(agency, site);
    assert.equal(first.status, 200, first.text);
    const sent = publishCalls(site);
    const second = await publish(client, site);
    assert.deepEqual([second.status, second.body.code, second.body.upstreamStatus], [429, 'publish_cooldown', undefined], second.text);
    assert.ok(second.body.retry_after_seconds >= 1 && second.body.retry_after_seconds <= 60);
    assert.equal(publishCalls(site), sent, 'the platform saw no second publish');
  });

  it('a publish the platform refuses starts no cooldown for any account', async () => {
    const site = addSite(world, 'Shared').id;
    const agency = await holding(site);
    const client = await holding(site);
    world.sim.injectFault({ kind: '5xx', status: 500, path: '/publish', times: 1 });
    assert.equal((await publish(agency, site)).status, 502);
    const retry = await publish(client, site);
    assert.equal(retry.status, 200, retry.text);
  });

  it('another site is not held back', async () => {
    const one = addSite(world, 'One').id;
    const two = addSite(world, 'Two').id;
    const account = await holding(one);
    const other = await holding(two);
    assert.equal((await publish(account, one)).status, 200);
    assert.equal((await publish(other, two)).status, 200);
  });
});
