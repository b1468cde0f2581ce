import assert from 'node:assert/strict';
import { putProjectSettings } from '../../../src/commerce/bindings/service';
import { startDeployedSite, type DeployedSite } from '../../../src/sandbox/deployedSite';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { newProjectId } from '../../helpers/projects';
import { deliverAndProcess, newShop, type TestShop } from '../webhooks/receiverKit';

const TAGS = ['commerce-products', 'commerce-collections'];

const invalidations = (shop: TestShop) =>
  harness().db('commerce_cache_invalidations').where({ connection_id: shop.connectionId }).orderBy('created_at');

/** A service-hosted project of the shop's account (inheriting the account default shop) deployed at `site`. */
async function deployedProject(
  shop: TestShop,
  site: DeployedSite,
  environment = 'production',
): Promise<{ projectId: string; deploymentId: string }> {
  const projectId = await newProjectId(shop.accountId, { kind: 'service_hosted', name: 'Shop front' });
  const res = await call('POST', `/api/projects/${projectId}/deployments`, {
    token: shop.account.ownerToken,
    body: { environment, base_url: site.baseUrl },
  });
  assert.equal(res.status, 201, res.text);
  site.secret = res.body.secret;
  return { projectId, deploymentId: res.body.id };
}

describe('catalogue revalidation of deployed sites', () => {
  const config = () => harness().deps.config;
  let allowedBefore: boolean;
  const sites: DeployedSite[] = [];
  const site = async () => {
    const s = await startDeployedSite();
    sites.push(s);
    return s;
  };

  // Loopback sites are reachable only where the repo allows private hosts (tests and the sandbox).
  before(() => {
    allowedBefore = config().FETCH_ALLOW_PRIVATE_HOSTS;
    config().FETCH_ALLOW_PRIVATE_HOSTS = true;
  });
  after(async () => {
    config().FETCH_ALLOW_PRIVATE_HOSTS = allowedBefore;
    await Promise.all(sites.map((s) => s.stop()));
  });

  it("a products/update reaches every deployment of the shop's service-hosted projects, validly signed, and records revalidated", async () => {
    const shop = await newShop();
    const [production, staging] = [await site(), await site()];
    const prod = await deployedProject(shop, production);
    const stage = await deployedProject(shop, staging, 'staging');
    const record = await deliverAndProcess(shop, 'products/update', { id: 632910392, title: 'Tea' });
    assert.equal(record.outcome, 'processed');
    for (const s of [production, staging]) {
      assert.deepEqual(
        s.revalidations.map((r) => r.tags),
        [TAGS],
      );
      assert.equal(s.rejected, 0);
      assert.ok(Math.abs(s.revalidations[0].timestamp - Date.now() / 1000) < 60);
    }
    const rows = await invalidations(shop);
    assert.deepEqual(
      rows.map((r) => [r.topic, r.target, r.outcome, r.tags]).sort(),
      [
        ['products/update', prod.deploymentId, 'revalidated', TAGS],
        ['products/update', stage.deploymentId, 'revalidated', TAGS],
      ].sort(),
    );
    const shown = await call('GET', `/api/projects/${prod.projectId}/deployments/${prod.deploymentId}`, { token: shop.account.ownerToken });
    assert.equal(shown.body.last_revalidation_outcome, 'revalidated');
    assert.ok(shown.body.last_revalidation_at);
  });

  it('a failing site records failed_<status> and the delivery is still processed', async () => {
    const shop = await newShop();
    const failing = await site();
    const { deploymentId } = await deployedProject(shop, failing);
    failing.fail({ status: 503 });
    const record = await deliverAndProcess(shop, 'collections/update', { id: 841564295 });
    assert.equal(record.outcome, 'processed');
    const rows = await invalidations(shop);
    assert.deepEqual(
      rows.map((r) => [r.target, r.outcome]),
      [[deploymentId, 'failed_503']],
    );
    assert.deepEqual(failing.revalidations, []);
  });

  it('a site holding another secret refuses the post (401) and the attempt records failed_401', async () => {
    const shop = await newShop();
    const other = await site();
    const { deploymentId } = await deployedProject(shop, other);
    other.secret = 'wyrv_not-the-deployments-secret';
    await deliverAndProcess(shop, 'products/create', { id: 1 });
    assert.deepEqual([other.rejected, other.revalidations.length], [1, 0]);
    assert.deepEqual(
      (await invalidations(shop)).map((r) => [r.target, r.outcome]),
      [[deploymentId, 'failed_401']],
    );
  });

  it('a site that is down records unreachable and the delivery is still processed', async () => {
    const shop = await newShop();
    const down = await site();
    const { deploymentId } = await deployedProject(shop, down);
    await down.stop();
    const record = await deliverAndProcess(shop, 'products/delete', { id: 2 });
    assert.equal(record.outcome, 'processed');
    assert.deepEqual(
      (await invalidations(shop)).map((r) => [r.target, r.outcome]),
      [[deploymentId, 'unreachable']],
    );
  });

  it('without FETCH_ALLOW_PRIVATE_HOSTS a loopback deployment is refused (blocked_host) and receives nothing', async () => {
    const shop = await newShop();
    const loopback = await site();
    const { deploymentId } = await deployedProject(shop, loopback);
    config().FETCH_ALLOW_PRIVATE_HOSTS = false;
    try {
      await deliverAndProcess(shop, 'products/update', { id: 3 });
    } finally {
      config().FETCH_ALLOW_PRIVATE_HOSTS = true;
    }
    assert.deepEqual(loopback.revalidations, []);
    assert.deepEqual(
      (await invalidations(shop)).map((r) => [r.target, r.outcome]),
      [[deploymentId, 'blocked_host']],
    );
  });

  it('only projects bound to this shop are revalidated: a disabled or platform-hosted project is not; none left records no_deployed_sites', async () => {
    const shop = await newShop();
    const unbound = await site();
    const { projectId } = await deployedProject(shop, unbound);
    await putProjectSettings(harness().db, shop.accountId, projectId, {
      override_mode: 'disabled',
      connection_id: null,
      storefront_api_version: null,
    });
    await newProjectId(shop.accountId, { kind: 'platform_hosted' });
    await deliverAndProcess(shop, 'products/update', { id: 4 });
    assert.deepEqual(unbound.revalidations, []);
    assert.deepEqual(
      (await invalidations(shop)).map((r) => [r.target, r.outcome]),
      [[null, 'no_deployed_sites']],
    );
  });

  it('a project overriding with this shop is revalidated even when another shop is the account default', async () => {
    const defaultShop = await newShop();
    const overrideShop = await newShop({ account: defaultShop.account });
    await harness().db('commerce_connections').where({ id: overrideShop.connectionId }).update({ purpose: 'project_override' });
    const front = await site();
    const { projectId, deploymentId } = await deployedProject(overrideShop, front);
    await putProjectSettings(harness().db, overrideShop.accountId, projectId, {
      override_mode: 'override',
      connection_id: overrideShop.connectionId,
      storefront_api_version: null,
    });
    await deliverAndProcess(defaultShop, 'products/update', { id: 5 });
    assert.equal(front.revalidations.length, 0, "the default shop's change does not reach a project overriding with another shop");
    await deliverAndProcess(overrideShop, 'products/update', { id: 6 });
    assert.deepEqual(
      front.revalidations.map((r) => r.tags),
      [TAGS],
    );
    assert.deepEqual(
      (await invalidations(overrideShop)).map((r) => [r.target, r.outcome]),
      [[deploymentId, 'revalidated']],
    );
  });
});
