import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config';
import { createAnalyticsClient } from '../../../src/clients/providers/analytics';
import { DEMO_ANALYTICS_SITE, startAnalyticsSandbox } from '../../../src/runtime/analyticsSandbox';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';

describe('start --sandbox, analytics side', () => {
  it('points ANALYTICS_* at the loopback simulator, names it in the banner, and a client reads the demo traffic through it', async () => {
    const sandbox = await startAnalyticsSandbox(new Date('2026-11-27T09:00:00Z'));
    try {
      const config = sandbox.configure(loadConfig({ ANALYTICS_API_KEY: '' }));
      assert.match(config.ANALYTICS_API_URL, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.ok(config.ANALYTICS_API_KEY);
      assert.ok(sandbox.bannerLines().some((line) => line.includes(config.ANALYTICS_API_URL) && line.includes(DEMO_ANALYTICS_SITE)));
      const client = createAnalyticsClient(config)!;
      const stats = await client.pageStats(DEMO_ANALYTICS_SITE, ['/', '/contact', '/not-a-page'], ['2026-10-01', '2026-11-26']);
      assert.deepEqual([...stats.keys()].sort(), ['/', '/contact']);
      for (const page of stats.values()) assert.ok(page.pageviews > 0 && page.visitors > 0 && page.form_submits > 0);
      const days = await client.dailyStats(DEMO_ANALYTICS_SITE, '/', '2026-11-20', '2026-11-26');
      assert.equal(days.length, 7);
      assert.ok(days.every((d) => d.pageviews > 0));
    } finally {
      await sandbox.stop();
    }
  });

  it('names the demo site on the demo project only while the project has none (a chosen site id is kept)', async () => {
    const sandbox = await startAnalyticsSandbox();
    try {
      const { deps, db } = harness();
      const acct = await newAccount();
      const fresh = await newProjectId(acct.accountId);
      await sandbox.prepareDemoProject(deps, acct.accountId, fresh);
      assert.equal((await db('projects').where({ id: fresh }).first()).analytics_site_id, DEMO_ANALYTICS_SITE);
      const chosen = await newProjectId(acct.accountId);
      await db('projects').where({ id: chosen }).update({ analytics_site_id: 'mine.example.com' });
      await sandbox.prepareDemoProject(deps, acct.accountId, chosen);
      assert.equal((await db('projects').where({ id: chosen }).first()).analytics_site_id, 'mine.example.com');
    } finally {
      await sandbox.stop();
    }
  });
});
