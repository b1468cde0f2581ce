import assert from 'node:assert/strict';
import { postRevalidation } from '../../../src/projects/deployments/revalidate';
import { newRevalidationSecret } from '../../../src/projects/deployments/secret';
import { revalidationSignature } from '../../../src/projects/deployments/signature';
import { startDeployedSite, type DeployedSite } from '../../../src/sandbox/deployedSite';

const policy = { FETCH_ALLOW_PRIVATE_HOSTS: true, NODE_ENV: 'test' as const };
const TAGS = ['commerce-products', 'commerce-collections'];

async function post(site: DeployedSite, body: string, signature?: string) {
  const res = await fetch(`${site.baseUrl}/api/revalidate`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...(signature ? { 'workyard-signature': signature } : {}) },
  });
  return res.status;
}

describe('the loopback deployed site', () => {
  let site: DeployedSite;
  beforeEach(async () => {
    site = await startDeployedSite({ secret: newRevalidationSecret() });
  });
  afterEach(async () => {
    await site.stop();
  });

  it('accepts a post signed with its secret and records the tags', async () => {
    assert.equal(await postRevalidation(site.baseUrl, site.secret!, TAGS, { policy }), 'revalidated');
    assert.deepEqual([site.revalidations.map((r) => r.tags), site.rejected], [[TAGS], 0]);
  });

  it('refuses a missing or forged signature and a timestamp more than five minutes old with 401', async () => {
    const body = JSON.stringify({ tags: TAGS });
    const now = Math.floor(Date.now() / 1000);
    assert.equal(await post(site, body), 401);
    assert.equal(await post(site, body, revalidationSignature(newRevalidationSecret(), now, body)), 401);
    assert.equal(await post(site, body, revalidationSignature(site.secret!, now - 301, body)), 401);
    assert.equal(await post(site, `${body} `, revalidationSignature(site.secret!, now, body)), 401, 'the body is signed byte for byte');
    assert.equal(await post(site, body, revalidationSignature(site.secret!, now, body)), 200);
    assert.deepEqual([site.rejected, site.revalidations.length], [4, 1]);
  });

  it('injected faults: an answered status, a dropped connection and a slow answer become failed_<status>, unreachable and timeout', async () => {
    site.fail({ status: 500 });
    assert.equal(await postRevalidation(site.baseUrl, site.secret!, TAGS, { policy }), 'failed_500');
    site.fail({ drop: true });
    assert.equal(await postRevalidation(site.baseUrl, site.secret!, TAGS, { policy }), 'unreachable');
    site.fail({ delayMs: 2_000 });
    assert.equal(await postRevalidation(site.baseUrl, site.secret!, TAGS, { policy, timeoutMs: 200 }), 'timeout');
    assert.deepEqual(site.revalidations, []);
  });

  it('a post to a loopback site is refused (blocked_host) when private hosts are not allowed, and nothing is sent', async () => {
    assert.equal(
      await postRevalidation(site.baseUrl, site.secret!, TAGS, { policy: { ...policy, FETCH_ALLOW_PRIVATE_HOSTS: false } }),
      'blocked_host',
    );
    assert.deepEqual([site.revalidations.length, site.rejected], [0, 0]);
  });
});
