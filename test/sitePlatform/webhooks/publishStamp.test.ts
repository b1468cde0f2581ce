import assert from 'node:assert/strict';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { addSite, connectWithSiteToken } from '../connections/fixtures';
import { OPS } from '../operations/fixtures';
import { bodyEventId, deliver, envelope, fannedOut, newConnection, startReceiverWorld, type ReceiverWorld } from './receiverKit';

/**
 * A site's `last_published_at` (per account: each account holding the site has its own row) follows its publishes: a
 * successful site_publish operation stamps it from the platform's answer, a site_publish delivery from its
 * `publishedOn`. The newest stamp wins; nothing moves it backwards.
 */
describe('site last_published_at follows publishes', () => {
  let rw: ReceiverWorld;
  before(async () => {
    rw = await startReceiverWorld();
  });
  after(async () => {
    await rw?.close();
  });

  const lastPublished = async (account: TestAccount, siteId: string): Promise<string | null> => {
    const res = await rw.world.app.call('GET', '/api/site-platform/sites', { token: account.ownerToken });
    assert.equal(res.status, 200, res.text);
    const site = res.body.data.find((s: { site_id: string }) => s.site_id === siteId);
    assert.ok(site, `site ${siteId} is listed`);
    return site.last_published_at;
  };
  const publish = (account: TestAccount, siteId: string, body: Record<string, unknown>) =>
    rw.world.app.call('POST', OPS, { token: account.agentKey, body: { action: 'site_publish', site_id: siteId, confirm: true, ...body } });

  it("a successful site_publish operation stamps the publishing account's site last_published_at from the publish answer; another account's row of the site is its own", async () => {
    const site = addSite(rw.world, 'Stamped', { customDomains: ['www.stamped.example.test'] });
    const [agency, client] = [await newAccount(), await newAccount()];
    await connectWithSiteToken(rw.world, agency, [site.id]);
    await connectWithSiteToken(rw.world, client, [site.id]);
    assert.equal(await lastPublished(agency, site.id), null);

    const res = await publish(agency, site.id, { customDomains: [site.customDomains[0].id] });
    assert.equal(res.status, 200, res.text);
    const answered = res.body.result.customDomains[0].lastPublished;
    assert.ok(answered);
    assert.equal(await lastPublished(agency, site.id), new Date(answered).toISOString());
    assert.equal(await lastPublished(client, site.id), null, "the other account's row waits for its own publish or delivery");
  });

  it('a publish to the platform subdomain alone (the answer names no time) is stamped with the time of the answer', async () => {
    const site = addSite(rw.world, 'Subdomain');
    const account = await newAccount();
    await connectWithSiteToken(rw.world, account, [site.id]);
    const before = Date.now();
    const res = await publish(account, site.id, { publishToWebflowSubdomain: true });
    assert.equal(res.status, 200, res.text);
    const stamp = await lastPublished(account, site.id);
    assert.ok(stamp);
    assert.ok(new Date(stamp).getTime() >= before - 1_000 && new Date(stamp).getTime() <= Date.now(), stamp);
  });

  it("a site_publish delivery stamps the account's site last_published_at with its publishedOn; the newest wins and an older delivery never moves it back", async () => {
    const c = await newConnection(rw, { authKind: 'site_token' });
    const siteId = c.siteIds[0];
    const deliverPublish = async (publishedOn: string) => {
      const raw = JSON.stringify(envelope('site_publish', { siteId, publishedOn, domains: [], publishedBy: { displayName: 'Ada' } }));
      const res = await deliver(rw, c, raw);
      assert.equal(res.status, 200, res.text);
      return fannedOut(c.accountId, siteId, bodyEventId('site_publish', raw));
    };
    const now = Date.now();
    const newer = new Date(now - 60_000).toISOString();
    const older = new Date(now - 600_000).toISOString();

    const first = await deliverPublish(newer);
    assert.equal(first.fan_out.last_published_at, newer);
    assert.equal(await lastPublished(c.account, siteId), newer);

    await deliverPublish(older);
    assert.equal(await lastPublished(c.account, siteId), newer, 'an older publish never moves the stamp back');

    const latest = new Date(now).toISOString();
    await deliverPublish(latest);
    assert.equal(await lastPublished(c.account, siteId), latest);

    // A time ahead of the service's clock cannot pin the stamp in the future: it is taken as now.
    await deliverPublish(new Date(now + 86_400_000).toISOString());
    const stamp = new Date((await lastPublished(c.account, siteId))!).getTime();
    assert.ok(stamp > now && stamp <= Date.now(), new Date(stamp).toISOString());
  });
});
