import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { tempDir } from './child';
import { API_LINE, APP_STEP, call, DEMO_SHOP, OWNER_TOKEN, sandboxRuns } from './sandboxKit';

const SIMULATOR_LINE = /^ {2}Simulator +(http:\/\/127\.0\.0\.1:\d+) +\(COMMERCE_SHOP_URL_TEMPLATE=(\S+)\)/m;
const SITE_SIMULATOR_LINE = /^ {2}Site platform +(http:\/\/127\.0\.0\.1:\d+) /m;
const DEMO_SITE_LINE = /^ {2}Demo site +.*\(site_id (\w+)\)/m;
const AGENT_KEY = /Agent key \(every permission\):\s+(\S+)/;
const SITE_TOKEN_STEP = /curl -X POST \S+\/api\/site-platform\/site-token .* -d '(\{[^']+\})'/;
const OAUTH_STEP = /curl -X POST \S+\/api\/site-platform\/connect .* -d '(\{[^']+\})'/;
const OPERATION_STEP = /curl "(http:\/\/\S+\/api\/agent\/web\/site-platform-ops\?\S+)"/;

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

describe('start --sandbox', function () {
  this.timeout(180_000);
  const sandbox = sandboxRuns();

  it('prints the simulators and how to connect the demo shop and the demo site, the printed steps connect both end to end, a site operation runs through the agent route, research runs against the simulated providers, and it stops the simulators cleanly', async () => {
    const dataDir = await tempDir('wy-sandbox-');
    const stack = sandbox.start(sandbox.env(dataDir));
    const [, apiUrl] = await stack.waitFor(API_LINE, 120_000);
    await stack.waitFor(/Press Ctrl-C to stop/, 10_000);
    const [, simulatorUrl, template] =
      stack.stdout.match(SIMULATOR_LINE) ?? assert.fail(`no simulator line in the banner:\n${stack.stdout}`);
    assert.equal(template, `${simulatorUrl}/{shop}`);
    assert.match(stack.stdout, new RegExp(`Demo shop +${DEMO_SHOP.replace(/\./g, '\\.')}`));
    assert.equal((await stat(path.join(dataDir, 'commerce-token-key'))).mode & 0o777, 0o600);

    // The simulator serves the demo shop's Admin API (and refuses a call without a token, as the platform does).
    assert.equal((await fetch(`${simulatorUrl}/${DEMO_SHOP}/admin/api/2025-04/shop.json`)).status, 401);

    // The banner's three steps, as a person would follow them.
    const token = stack.stdout.match(OWNER_TOKEN)?.[1] ?? assert.fail("no owner token in the first start's banner");
    const appBody = JSON.parse(
      stack.stdout.match(APP_STEP)?.[1] ?? assert.fail(`no app registration step in the banner:\n${stack.stdout}`),
    );
    assert.equal((await call('PUT', `${apiUrl}/api/commerce/app`, token, appBody)).status, 200);
    const connect = await call('POST', `${apiUrl}/api/commerce/connect`, token, { shop_domain: DEMO_SHOP });
    assert.equal(connect.status, 200, JSON.stringify(connect.body));
    assert.ok(connect.body.authorize_url.startsWith(`${simulatorUrl}/${DEMO_SHOP}/admin/oauth/authorize?`), connect.body.authorize_url);
    const callback = await fetch(connect.body.authorize_url, { headers: { accept: 'application/json' } });
    const connected = (await callback.json()) as any;
    assert.equal(callback.status, 200, JSON.stringify(connected));
    assert.equal(connected.connection.shop_domain, DEMO_SHOP);
    assert.deepEqual(connected.webhooks.failed, [], "the demo shop's webhooks were not all registered at the API");

    // Research works end to end against the simulated search API, chat model and demo pages.
    assert.match(stack.stdout, /research providers are simulated on loopback/);
    const imagesUrl =
      stack.stdout.match(/image generation is simulated on loopback .*: (http:\/\/127\.0\.0\.1:\d+\/v1)$/m)?.[1] ??
      assert.fail(`no image simulator line in the banner:\n${stack.stdout}`);
    assert.equal((await fetch(`${imagesUrl}/images/generations`, { method: 'POST' })).status, 401, 'the image simulator wants its key');
    const item = await call('POST', `${apiUrl}/api/marketing/content`, token, {
      title: 'Heat pumps for old houses',
      target_keyword: 'heat pumps',
    });
    assert.equal(item.status, 201, JSON.stringify(item.body));
    const research = await call('POST', `${apiUrl}/api/marketing/content/${item.body.id}/research`, token, { max_sources: 3 });
    assert.equal(research.status, 201, JSON.stringify(research.body));
    assert.equal(research.body.extraction, 'model');
    assert.equal(research.body.sources.length, 3);
    assert.ok(
      research.body.claims.some((c: any) => c.kind === 'web' && c.source_url),
      JSON.stringify(research.body.claims),
    );

    // The site platform: a pasted site token (printed once), then OAuth with the demo client; an operation after each.
    const [, siteSimulatorUrl] =
      stack.stdout.match(SITE_SIMULATOR_LINE) ?? assert.fail(`no site platform line in the banner:\n${stack.stdout}`);
    const [, demoSiteId] = stack.stdout.match(DEMO_SITE_LINE) ?? assert.fail(`no demo site line in the banner:\n${stack.stdout}`);
    assert.equal((await stat(path.join(dataDir, 'site-platform-token-key'))).mode & 0o777, 0o600);
    assert.equal((await fetch(`${siteSimulatorUrl}/v2/sites`)).status, 401, 'the site simulator answers a call without a token');
    const agentKey = stack.stdout.match(AGENT_KEY)?.[1] ?? assert.fail("no agent key in the first start's banner");
    const tokenBody = JSON.parse(
      stack.stdout.match(SITE_TOKEN_STEP)?.[1] ?? assert.fail(`no site token step in the banner:\n${stack.stdout}`),
    );
    assert.equal(occurrences(stack.stdout, tokenBody.token), 1, 'the site token is shown once');
    const pasted = await call('POST', `${apiUrl}/api/site-platform/site-token`, token, tokenBody);
    assert.equal(pasted.status, 201, JSON.stringify(pasted.body));
    assert.equal(pasted.body.connection.auth_kind, 'site_token');
    assert.deepEqual(
      pasted.body.sites.map((s: any) => s.site_id),
      [demoSiteId],
    );
    const operationUrl = stack.stdout.match(OPERATION_STEP)?.[1] ?? assert.fail(`no operation step in the banner:\n${stack.stdout}`);
    const collections = await call('GET', operationUrl, agentKey);
    assert.equal(collections.status, 200, JSON.stringify(collections.body));
    assert.equal(collections.body.action, 'cms_collection_list');
    assert.deepEqual(
      collections.body.result.collections.map((c: any) => c.displayName),
      ['Posts'],
    );

    const oauthBody = JSON.parse(stack.stdout.match(OAUTH_STEP)?.[1] ?? assert.fail(`no OAuth step in the banner:\n${stack.stdout}`));
    const started = await call('POST', `${apiUrl}/api/site-platform/connect`, token, oauthBody);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(started.body.client, 'service');
    assert.ok(started.body.authorize_url.startsWith(`${siteSimulatorUrl}/oauth/authorize?`), started.body.authorize_url);
    const siteCallback = await fetch(started.body.authorize_url, { headers: { accept: 'application/json' } });
    const siteConnected = (await siteCallback.json()) as any;
    assert.equal(siteCallback.status, 200, JSON.stringify(siteConnected));
    assert.equal(siteConnected.connection.auth_kind, 'oauth');
    assert.ok(
      siteConnected.sites.some((s: any) => s.site_id === demoSiteId),
      JSON.stringify(siteConnected.sites),
    );
    const site = await call('GET', `${apiUrl}/api/agent/web/site-platform-ops?action=site_get&site_id=${demoSiteId}`, agentKey);
    assert.equal(site.status, 200, JSON.stringify(site.body));
    assert.equal(site.body.result.displayName, 'Demo site');
    assert.equal(occurrences(stack.stdout + stack.stderr, tokenBody.token), 1, 'the site token reached a log');

    stack.signal('SIGTERM');
    const result = await stack.exited;
    assert.equal(result.code, 0, `exit ${result.code}/${result.signal}\n${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, /stopped: platform and provider simulators/);
    assert.match(result.stdout, /shutdown complete/);
    await assert.rejects(fetch(`${simulatorUrl}/${DEMO_SHOP}/admin/api/2025-04/shop.json`), 'the simulator still answers after the stop');
    await assert.rejects(fetch(`${siteSimulatorUrl}/v2/sites`), 'the site simulator still answers after the stop');
  });
});
