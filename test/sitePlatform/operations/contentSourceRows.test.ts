import assert from 'node:assert/strict';
import { saveContentSourceSite } from '../../../src/sitePlatform/operations/contentSourceStore';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';

describe('site platform content-source rows', () => {
  it('concurrent content-source saves of one project all succeed and leave one row holding one of the sites', async () => {
    const account = await newAccount();
    const projectId = await newProjectId(account.accountId);
    const sites = Array.from({ length: 20 }, (_, i) => `site_race_${i}`);
    const saves = await Promise.allSettled(sites.map((site) => saveContentSourceSite(harness().db, account.accountId, projectId, site)));
    assert.deepEqual(
      saves.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : [])),
      [],
    );
    const rows = await harness().db('site_platform_content_sources').where({ project_id: projectId });
    assert.equal(rows.length, 1);
    assert.equal(rows[0].account_id, account.accountId);
    assert.ok(sites.includes(rows[0].site_id));
  });
});
