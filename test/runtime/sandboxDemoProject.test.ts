import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { eventually } from '../jobs/jobTestKit';
import { tempDir } from './child';
import { API_LINE, APP_STEP, call, DEMO_SHOP, OWNER_TOKEN, sandboxRuns } from './sandboxKit';

const DEMO_PROJECT = /Sandbox: demo project ([0-9a-f-]{36}) /;
const DEPLOYED_SITE = /Its production deployment ([0-9a-f-]{36}) is a loopback deployed site on (http:\/\/127\.0\.0\.1:\d+)/;

describe('start --sandbox: the demo project', function () {
  this.timeout(400_000);
  const sandbox = sandboxRuns();

  it("creates a service-hosted demo project once, with a production deployment on the loopback deployed site that receives the demo shop's catalogue revalidations, and prints its id", async () => {
    const dataDir = await tempDir('wy-sandbox-demo-');
    const env = sandbox.env(dataDir);
    let stack = sandbox.start(env);
    const [, apiUrl] = await stack.waitFor(API_LINE, 180_000);
    await stack.waitFor(/Press Ctrl-C to stop/, 20_000);
    const [, projectId] = stack.stdout.match(DEMO_PROJECT) ?? assert.fail(`no demo project in the banner:\n${stack.stdout}`);
    const [, deploymentId, siteUrl] = stack.stdout.match(DEPLOYED_SITE) ?? assert.fail(`no deployed site in the banner:\n${stack.stdout}`);
    const token = stack.stdout.match(OWNER_TOKEN)?.[1] ?? assert.fail("no owner token in the first start's banner");

    const deployments = await call('GET', `${apiUrl}/api/projects/${projectId}/deployments`, token);
    assert.equal(deployments.status, 200, JSON.stringify(deployments.body));
    assert.deepEqual(
      deployments.body.data.map((d: any) => [d.id, d.environment, d.base_url]),
      [[deploymentId, 'production', siteUrl]],
    );
    const settings = await call('GET', `${apiUrl}/api/commerce/projects/${projectId}/settings`, token);
    assert.deepEqual([settings.status, settings.body.override_mode, settings.body.configured], [200, 'inherit', true]);

    // Connect the demo shop (the banner's steps), then send it a signed products/update as the platform would.
    const app = JSON.parse(stack.stdout.match(APP_STEP)?.[1] ?? assert.fail('no app step in the banner'));
    assert.equal((await call('PUT', `${apiUrl}/api/commerce/app`, token, app)).status, 200);
    const connect = await call('POST', `${apiUrl}/api/commerce/connect`, token, { shop_domain: DEMO_SHOP });
    assert.equal(connect.status, 200, JSON.stringify(connect.body));
    assert.equal((await fetch(connect.body.authorize_url, { headers: { accept: 'application/json' } })).status, 200);
    const body = JSON.stringify({ id: 632910392, title: 'Demo tea' });
    const delivered = await fetch(`${apiUrl}/api/webhooks/commerce`, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'x-commerce-shop-domain': DEMO_SHOP,
        'x-commerce-topic': 'products/update',
        'x-commerce-webhook-id': randomUUID(),
        'x-commerce-hmac-sha256': createHmac('sha256', app.client_secret).update(body).digest('base64'),
      },
    });
    assert.equal(delivered.status, 200, await delivered.text());
    const received = await eventually(
      async () => (await (await fetch(`${siteUrl}/api/revalidations`)).json()) as { data: Array<{ tags: string[] }>; rejected: number },
      (r) => r.data.length > 0,
      60_000,
      'the deployed site to receive the revalidation',
    );
    assert.deepEqual([received.data.map((r) => r.tags), received.rejected], [[['commerce-products', 'commerce-collections']], 0]);

    // A second start on the same data keeps the project and its deployment, pointed at the new site.
    stack.signal('SIGTERM');
    assert.equal((await stack.exited).code, 0);
    stack = sandbox.start(env);
    await stack.waitFor(/Press Ctrl-C to stop/, 180_000);
    const [, againProject] = stack.stdout.match(DEMO_PROJECT) ?? assert.fail(`no demo project in the second banner:\n${stack.stdout}`);
    const [, againDeployment] = stack.stdout.match(DEPLOYED_SITE) ?? assert.fail('no deployed site in the second banner');
    assert.deepEqual([againProject, againDeployment], [projectId, deploymentId]);
  });
});
