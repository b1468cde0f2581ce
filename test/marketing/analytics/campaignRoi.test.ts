import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { call } from '../../helpers/http';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { newProjectId } from '../../helpers/projects';
import { bind, contactOf, deal, linkedItem, onPage, submit } from './fixtures';

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

describe('campaign ROI (GET /api/marketing/reports/campaign-roi)', function () {
  this.timeout(60_000);
  let owner: TestAccount;
  let projectId: string;
  let siteId: string;

  before(async () => {
    owner = await newAccount('ROI Co');
    projectId = await newProjectId(owner.accountId, { kind: 'service_hosted', host: 'www.roi.test' });
    siteId = `site_${randomBytes(4).toString('hex')}`;
    await bind(owner.accountId, projectId, siteId);
  });

  const publishedItem = (slug: string) => linkedItem(owner.ownerToken, projectId, slug);

  /** A contact whose first touch is `path` (`days` ago), with UTM fields when given. */
  async function touch(path: string, days: number, fields: Record<string, unknown> = {}): Promise<string> {
    const email = `c-${randomBytes(4).toString('hex')}@example.test`;
    const contactId = await contactOf(owner.accountId, email);
    const id = await submit(owner.accountId, siteId, { email, at: daysAgo(days), fields });
    await onPage(id, path);
    return contactId;
  }

  const roi = (query = '', token = owner.ownerToken) => call('GET', `/api/marketing/reports/campaign-roi${query}`, { token });

  it('per content item: attributed contacts, deals, won and revenue per currency; mixed currencies are flagged, never summed', async () => {
    const guide = await publishedItem('guide');
    const a = await touch('/blog/guide', 5);
    const b = await touch('/blog/guide', 4);
    await deal(owner.accountId, a, 120000, 'EUR', { won: true });
    await deal(owner.accountId, b, 5000, 'USD', { won: true });
    await deal(owner.accountId, b, 9999, 'USD');
    const res = await roi();
    assert.equal(res.status, 200, res.text);
    const asset = res.body.data.find((x: { content_id: string }) => x.content_id === guide);
    assert.ok(asset, res.text);
    assert.deepEqual(
      { contacts: asset.attributed_contacts, deals: asset.deals, won: asset.won, revenue: asset.revenue, mixed: asset.mixed_currency },
      {
        contacts: 2,
        deals: 3,
        won: 2,
        revenue: [
          { currency: 'EUR', amount_minor: 120000 },
          { currency: 'USD', amount_minor: 5000 },
        ],
        mixed: true,
      },
    );
    assert.equal(asset.path, '/blog/guide');
  });

  it('a UTM campaign named by first touches is an asset of its own', async () => {
    const c = await touch('/landing', 3, { utm_campaign: 'spring-sale' });
    await deal(owner.accountId, c, 7000, 'EUR', { won: true });
    const res = await roi();
    const campaign = res.body.data.find((x: { campaign: string | null }) => x.campaign === 'spring-sale');
    assert.ok(campaign, res.text);
    assert.deepEqual([campaign.type, campaign.attributed_contacts, campaign.won, campaign.mixed_currency], ['campaign', 1, 1, false]);
  });

  it('from/to bound the first touches; sort orders descending; limit truncates', async () => {
    await publishedItem('old');
    await touch('/blog/old', 40);
    const recent = await roi(`?from=${daysAgo(10).toISOString().slice(0, 10)}`);
    assert.ok(!recent.body.data.some((x: { path: string | null }) => x.path === '/blog/old'));
    const all = await roi('?sort=won');
    const won = all.body.data.map((x: { won: number }) => x.won);
    assert.deepEqual(
      won,
      [...won].sort((x: number, y: number) => y - x),
    );
    assert.equal(all.body.truncated, false);
    const one = await roi('?limit=1');
    assert.equal(one.body.data.length, 1);
    assert.equal(one.body.truncated, true);
  });

  it('bad dates, a reversed range, an unknown sort or a limit out of range is 400', async () => {
    for (const q of ['?from=2026-13-01', '?from=2026-05-02&to=2026-05-01', '?sort=revenue', '?limit=0', '?limit=201', '?extra=1']) {
      assert.equal((await roi(q)).status, 400, q);
    }
  });

  it("needs marketing.reports:read on the agent twin; another account's report holds none of this account's assets", async () => {
    const reader = await newAgentKey(owner.accountId, ['marketing.reports:read']);
    assert.equal((await call('GET', '/api/agent/marketing/reports/campaign-roi', { token: reader })).status, 200);
    const other = await newAgentKey(owner.accountId, ['marketing.content:read']);
    assert.equal((await call('GET', '/api/agent/marketing/reports/campaign-roi', { token: other })).status, 403);
    const stranger = await newAccount('Stranger ROI');
    const theirs = await roi('', stranger.ownerToken);
    assert.deepEqual(theirs.body.data, []);
  });
});
