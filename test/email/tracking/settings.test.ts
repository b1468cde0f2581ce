import assert from 'node:assert/strict';
import { domainTrackingState } from '../../../src/email/domains/service';
import { newAccount } from '../../helpers/accounts';
import { call } from '../../helpers/http';
import { harness } from '../../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { assertError, assertFieldError } from '../../marketing/grounding/fixtures';
import { newEmailKey } from '../domains/fixtures';
import { startCnameServer, type CnameServer } from './cnameServer';
import { PUBLIC_URL } from './kit';

interface RecordJson {
  purpose: string;
  type: string;
  name: string;
  value: string;
  requirement: string;
  status: string;
  last_check_error: string | null;
}

describe('open and click tracking settings of a sender domain', () => {
  let dns: CnameServer;
  let app: PrivateApp;
  let unconfigured: PrivateApp;
  let key: string;
  let accountId: string;
  let n = 0;
  const uniqueDomain = () => `t${++n}-${Date.now().toString(36)}.example.com`;

  before(async () => {
    dns = await startCnameServer();
    app = await startPrivateApp([], { config: { PUBLIC_APP_URL: PUBLIC_URL, EMAIL_DNS_SERVERS: dns.address } });
    unconfigured = await startPrivateApp([], { config: { PUBLIC_APP_URL: undefined } });
  });
  after(async () => {
    await app.close();
    await unconfigured.close();
    await dns.stop();
  });
  beforeEach(async () => {
    ({ accountId } = await newAccount());
    key = await newEmailKey(accountId, ['email:domains']);
  });

  const add = async (target: PrivateApp = app, name = uniqueDomain()) => {
    const res = await target.call('POST', '/v1/email/domains', { token: key, body: { name } });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };
  const patch = (id: string, body: unknown, target: PrivateApp = app) =>
    target.call('PATCH', `/v1/email/domains/${id}`, { token: key, body });
  const tracking = (d: { open_tracking: boolean; click_tracking: boolean; tracking_host: string | null }) => ({
    open_tracking: d.open_tracking,
    click_tracking: d.click_tracking,
    tracking_host: d.tracking_host,
  });
  const cname = (d: { records: RecordJson[] }) => d.records.filter((r) => r.purpose === 'tracking_cname');

  it('tracking is off by default; PATCH turns each kind on and off and the domain answers it', async () => {
    const domain = await add();
    assert.deepEqual(tracking(domain), { open_tracking: false, click_tracking: false, tracking_host: null });

    const open = await patch(domain.id, { open_tracking: true });
    assert.equal(open.status, 200, open.text);
    assert.deepEqual(tracking(open.body), { open_tracking: true, click_tracking: false, tracking_host: null });
    const both = await patch(domain.id, { click_tracking: true });
    assert.deepEqual(tracking(both.body), { open_tracking: true, click_tracking: true, tracking_host: null });
    const clicksOnly = await patch(domain.id, { open_tracking: false });
    assert.deepEqual(tracking(clicksOnly.body), { open_tracking: false, click_tracking: true, tracking_host: null });

    const read = await app.call('GET', `/v1/email/domains/${domain.id}`, { token: key });
    assert.deepEqual(tracking(read.body), { open_tracking: false, click_tracking: true, tracking_host: null });
    const list = await app.call('GET', '/v1/email/domains', { token: key });
    assert.deepEqual(tracking(list.body.data[0]), { open_tracking: false, click_tracking: true, tracking_host: null });
    assert.deepEqual(await domainTrackingState(harness().db, accountId, domain.name, undefined), {
      openTracking: false,
      clickTracking: true,
      trackingHost: null,
    });
  });

  it('enabling tracking without PUBLIC_APP_URL is 422 tracking_not_configured and changes nothing', async () => {
    const domain = await add(unconfigured);
    for (const [body, field] of [
      [{ open_tracking: true }, 'open_tracking'],
      [{ click_tracking: true }, 'click_tracking'],
      [{ tracking_host: `track.${domain.name}` }, 'tracking_host'],
    ] as const) {
      const res = await patch(domain.id, body, unconfigured);
      assertError(res, 422, 'tracking_not_configured');
      assert.equal(res.body.field, field);
    }
    const read = await unconfigured.call('GET', `/v1/email/domains/${domain.id}`, { token: key });
    assert.deepEqual(tracking(read.body), { open_tracking: false, click_tracking: false, tracking_host: null });
    const off = await patch(domain.id, { open_tracking: false, click_tracking: false, tracking_host: null }, unconfigured);
    assert.equal(off.status, 200, 'switching off needs no public URL');
  });

  it('a tracking host needs PUBLIC_APP_URL to name a host a CNAME can point at, not an IP address (422)', async () => {
    const domain = (await call('POST', '/v1/email/domains', { token: key, body: { name: uniqueDomain() } })).body;
    assert.match(harness().deps.config.PUBLIC_APP_URL ?? '', /^http:\/\/127\.0\.0\.1:/);
    const res = await call('PATCH', `/v1/email/domains/${domain.id}`, { token: key, body: { tracking_host: `track.${domain.name}` } });
    assertError(res, 422, 'tracking_not_configured');
    assert.equal(res.body.field, 'tracking_host');
    const open = await call('PATCH', `/v1/email/domains/${domain.id}`, { token: key, body: { open_tracking: true } });
    assert.equal(open.status, 200, 'tracking on the service URL works with any PUBLIC_APP_URL');
  });

  it('the tracking host must be a name under the domain other than its return path (400); unknown fields are refused', async () => {
    const domain = await add();
    for (const host of [
      'track.other.example',
      domain.name,
      `bounces.${domain.name}`,
      `bad_label.${domain.name}`,
      `x..${domain.name}`,
      '',
    ]) {
      assertFieldError(await patch(domain.id, { tracking_host: host }), 'body.tracking_host');
    }
    assertFieldError(await patch(domain.id, { open_tracking: 'yes' }), 'body.open_tracking');
    assertFieldError(await patch(domain.id, { tracking: true }), 'body');
    const ok = await patch(domain.id, { tracking_host: `Track.${domain.name}.` });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.tracking_host, `track.${domain.name}`, 'stored lowercased, without the trailing dot');
  });

  it("another account's domain is 404, and PATCH needs the email:domains scope (403)", async () => {
    const domain = await add();
    const other = await newAccount();
    const otherKey = await newEmailKey(other.accountId, ['email:domains']);
    assertError(
      await app.call('PATCH', `/v1/email/domains/${domain.id}`, { token: otherKey, body: { open_tracking: true } }),
      404,
      'domain_not_found',
    );
    assertError(await patch('not-a-uuid', { open_tracking: true }), 404, 'domain_not_found');
    const sendOnly = await newEmailKey(accountId, ['email:send']);
    assertError(
      await app.call('PATCH', `/v1/email/domains/${domain.id}`, { token: sendOnly, body: { open_tracking: true } }),
      403,
      'missing_scope',
    );
    const read = await app.call('GET', `/v1/email/domains/${domain.id}`, { token: key });
    assert.equal(read.body.open_tracking, false);
  });

  it('a tracking host lists a CNAME to the service host, verified like the other records; a new host starts unchecked', async () => {
    const domain = await add();
    const host = `track.${domain.name}`;
    const withHost = (await patch(domain.id, { tracking_host: host })).body;
    assert.deepEqual(
      cname(withHost).map((r) => [r.type, r.name, r.value, r.requirement, r.status]),
      [['CNAME', host, 'api.workyard.test', 'required', 'pending']],
    );
    const state = () => domainTrackingState(harness().db, accountId, domain.name, 'api.workyard.test');
    assert.equal((await state()).trackingHost, null, 'links do not use it before it verifies');

    const notFound = (await app.call('POST', `/v1/email/domains/${domain.id}/verify`, { token: key })).body;
    assert.deepEqual(
      cname(notFound).map((r) => [r.status, r.last_check_error]),
      [['failed', 'record not found']],
    );

    dns.set(host, 'elsewhere.example');
    const differs = (await app.call('POST', `/v1/email/domains/${domain.id}/verify`, { token: key })).body;
    assert.deepEqual(
      cname(differs).map((r) => [r.status, r.last_check_error]),
      [['failed', 'value differs']],
    );

    dns.set(host, 'api.workyard.test.');
    const verified = await app.call('POST', `/v1/email/domains/${domain.id}/verify`, { token: key });
    assert.equal(verified.status, 200, verified.text);
    assert.deepEqual(
      cname(verified.body).map((r) => [r.status, r.last_check_error]),
      [['verified', null]],
    );
    assert.equal((await state()).trackingHost, host, 'links use it once verified');
    assert.equal(
      (await domainTrackingState(harness().db, accountId, domain.name, 'api.other.test')).trackingHost,
      null,
      'a check against another service host does not count',
    );

    const moved = (await patch(domain.id, { tracking_host: `links.${domain.name}` })).body;
    assert.deepEqual(
      cname(moved).map((r) => [r.name, r.status]),
      [[`links.${domain.name}`, 'pending']],
    );
    assert.equal((await state()).trackingHost, null, 'the new host is used once its own record verifies');

    const none = (await patch(domain.id, { tracking_host: null })).body;
    assert.deepEqual(cname(none), []);
    assert.equal(none.tracking_host, null);
  });
});
