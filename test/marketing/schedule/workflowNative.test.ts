import assert from 'node:assert/strict';
import { startDeployedSite, type DeployedSite } from '../../../src/sandbox/deployedSite';
import { progressQuery } from '../../../workflows/progress.contract';
import { arm, inSeconds, itemRow, nativeProject, newLinkedItem, resultOf, startPublishWorld, type PublishWorld } from './workflowKit';

describe('content-publish workflow: a service-hosted project on the native CMS', function () {
  this.timeout(60_000);
  let pw: PublishWorld;
  const sites: DeployedSite[] = [];
  before(async () => {
    pw = await startPublishWorld();
  });
  after(async () => {
    await pw?.close();
    await Promise.all(sites.map((s) => s.stop()));
  });

  async function deploy(projectId: string, environment: string): Promise<DeployedSite> {
    const site = await startDeployedSite();
    sites.push(site);
    const res = await pw.world.app.call('POST', `/api/projects/${projectId}/deployments`, {
      token: pw.t.account.ownerToken,
      body: { environment, base_url: site.baseUrl },
    });
    assert.equal(res.status, 201, res.text);
    site.secret = res.body.secret;
    return site;
  }

  it("publishes by status at the time and revalidates the deployment of the item's deploy_target with the content tags; no platform call", async () => {
    const projectId = await nativeProject(pw);
    const [production, staging] = [await deploy(projectId, 'production'), await deploy(projectId, 'staging')];
    const id = await newLinkedItem(pw, projectId);
    const at = inSeconds(2);
    const armed = await arm(pw, id, at, { projectId, deployTarget: 'staging' });
    const mark = pw.world.sim.requests().length;
    const result = await resultOf(armed);
    assert.equal(result.outcome, 'published');

    const row = await itemRow(id);
    assert.equal(row.status, 'published');
    assert.ok(row.published_at.getTime() >= at.getTime());
    assert.equal(row.scheduled_publish_at, null);
    assert.equal(row.schedule_executes, false);
    assert.equal(row.site_entry_url, null);
    assert.equal(row.cms_link.item_id ?? null, null, 'no platform entry');
    assert.deepEqual(pw.world.sim.requests().slice(mark), [], 'the platform is not called');

    assert.deepEqual(
      staging.revalidations.map((r) => r.tags),
      [['content', `content:${id}`]],
    );
    assert.equal(staging.rejected, 0);
    assert.deepEqual(production.revalidations, []);
  });

  it('deploy_target publish revalidates production; a deployment that fails to revalidate is a warning, the item is still published', async () => {
    const projectId = await nativeProject(pw);
    const production = await deploy(projectId, 'production');
    production.secret = 'wyrv_not-the-secret';
    const id = await newLinkedItem(pw, projectId);
    const armed = await arm(pw, id, inSeconds(2), { projectId, deployTarget: 'publish' });
    const result = await resultOf(armed);
    assert.equal(result.outcome, 'published');
    assert.equal((await itemRow(id)).status, 'published');
    assert.equal(production.rejected, 1);
    const progress = await armed.handle.query(progressQuery);
    assert.equal(progress.phase, 'published');
    assert.deepEqual(progress.warnings, ['revalidation of the production deployment: failed_401']);
  });

  it('items due at the same instant on one deployment are revalidated together: fewer posts than items, every item tag delivered', async () => {
    const projectId = await nativeProject(pw);
    const production = await deploy(projectId, 'production');
    const ids = [await newLinkedItem(pw, projectId), await newLinkedItem(pw, projectId), await newLinkedItem(pw, projectId)];
    const at = inSeconds(2);
    const runs = [];
    for (const id of ids) runs.push(await arm(pw, id, at, { projectId }));
    for (const run of runs) assert.equal((await resultOf(run)).outcome, 'published');
    const received = production.revalidations.flatMap((r) => r.tags);
    assert.deepEqual([...new Set(received)].sort(), ['content', ...ids.map((id) => `content:${id}`)].sort());
    assert.ok(production.revalidations.length < ids.length, `${production.revalidations.length} posts for ${ids.length} items`);
  });
});
