import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { withDatabaseName } from '../../src/runtime/database';
import { harness } from '../helpers/harness';
import { childEnv, removeTempDirs, RunningMain, tempDir } from './child';

const API_LINE = /^ {2}API +(http:\/\/\S+)/m;
const SIMULATOR_LINE = /^ {2}Simulator +(http:\/\/127\.0\.0\.1:\d+) +\(COMMERCE_SHOP_URL_TEMPLATE=(\S+)\)/m;
const OWNER_TOKEN = /Owner session token[^\n]*?(wys_\S+)/;
const APP_STEP = /curl -X PUT \S+\/api\/commerce\/app .* -d '(\{[^']+\})'/;
const DEMO_SHOP = 'demo-shop.commerce.test';

async function call(method: string, url: string, token: string, body?: unknown) {
  const res = await fetch(url, {
    method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() as any };
}

describe('start --sandbox', function () {
  this.timeout(180_000);
  let stack: RunningMain | undefined;
  const serverUrl = () => withDatabaseName(harness().databaseUrl, 'postgres');
  const databaseName = `workyard_sandbox_${randomBytes(4).toString('hex')}`;
  after(async () => {
    await stack?.kill();
    await removeTempDirs();
    const admin = new pg.Client({ connectionString: serverUrl() });
    await admin.connect();
    await admin.query(`drop database if exists ${pg.escapeIdentifier(databaseName)} with (force)`);
    await admin.end();
  });

  it('prints the simulator URL and how to connect the demo shop, the printed steps connect it end to end, research runs against the simulated providers, and it stops the simulators cleanly', async () => {
    const dataDir = await tempDir('wy-sandbox-');
    stack = new RunningMain(['start', '--sandbox'], childEnv({
      DATA_DIR: dataDir, PORT: '0', DATABASE_URL: withDatabaseName(serverUrl(), databaseName),
      COMMERCE_TOKEN_ENCRYPTION_KEY: '', PUBLIC_APP_URL: '',
    }));
    const [, apiUrl] = await stack.waitFor(API_LINE, 120_000);
    await stack.waitFor(/Press Ctrl-C to stop/, 10_000);
    const [, simulatorUrl, template] = stack.stdout.match(SIMULATOR_LINE) ?? assert.fail(`no simulator line in the banner:\n${stack.stdout}`);
    assert.equal(template, `${simulatorUrl}/{shop}`);
    assert.match(stack.stdout, new RegExp(`Demo shop +${DEMO_SHOP.replace(/\./g, '\\.')}`));
    assert.equal((await stat(path.join(dataDir, 'commerce-token-key'))).mode & 0o777, 0o600);

    // The simulator serves the demo shop's Admin API (and refuses a call without a token, as the platform does).
    assert.equal((await fetch(`${simulatorUrl}/${DEMO_SHOP}/admin/api/2025-04/shop.json`)).status, 401);

    // The banner's three steps, as a person would follow them.
    const token = stack.stdout.match(OWNER_TOKEN)?.[1] ?? assert.fail('no owner token in the first start\'s banner');
    const appBody = JSON.parse(stack.stdout.match(APP_STEP)?.[1] ?? assert.fail(`no app registration step in the banner:\n${stack.stdout}`));
    assert.equal((await call('PUT', `${apiUrl}/api/commerce/app`, token, appBody)).status, 200);
    const connect = await call('POST', `${apiUrl}/api/commerce/connect`, token, { shop_domain: DEMO_SHOP });
    assert.equal(connect.status, 200, JSON.stringify(connect.body));
    assert.ok(connect.body.authorize_url.startsWith(`${simulatorUrl}/${DEMO_SHOP}/admin/oauth/authorize?`), connect.body.authorize_url);
    const callback = await fetch(connect.body.authorize_url, { headers: { accept: 'application/json' } });
    const connected = await callback.json() as any;
    assert.equal(callback.status, 200, JSON.stringify(connected));
    assert.equal(connected.connection.shop_domain, DEMO_SHOP);
    assert.deepEqual(connected.webhooks.failed, [], 'the demo shop\'s webhooks were not all registered at the API');

    // Research works end to end against the simulated search API, chat model and demo pages.
    assert.match(stack.stdout, /research providers are simulated on loopback/);
    const item = await call('POST', `${apiUrl}/api/marketing/content`, token, { title: 'Heat pumps for old houses', target_keyword: 'heat pumps' });
    assert.equal(item.status, 201, JSON.stringify(item.body));
    const research = await call('POST', `${apiUrl}/api/marketing/content/${item.body.id}/research`, token, { max_sources: 3 });
    assert.equal(research.status, 201, JSON.stringify(research.body));
    assert.equal(research.body.extraction, 'model');
    assert.equal(research.body.sources.length, 3);
    assert.ok(research.body.claims.some((c: any) => c.kind === 'web' && c.source_url), JSON.stringify(research.body.claims));

    stack.signal('SIGTERM');
    const result = await stack.exited;
    assert.equal(result.code, 0, `exit ${result.code}/${result.signal}\n${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, /stopped: platform and provider simulators/);
    assert.match(result.stdout, /shutdown complete/);
    await assert.rejects(fetch(`${simulatorUrl}/${DEMO_SHOP}/admin/api/2025-04/shop.json`), 'the simulator still answers after the stop');
  });
});
