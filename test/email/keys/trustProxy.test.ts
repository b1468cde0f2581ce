import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type { TrustProxy } from '../../../src/http/trustProxy';
import { createLogger } from '../../../src/logger';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { assertError } from '../../marketing/grounding/fixtures';
import { newEmailKey, startKeyApp, type KeyApp } from './kit';

const CLIENT = '203.0.113.7';
const LOOPBACK: TrustProxy = { proxies: ['127.0.0.0/8', '::1/128'] };

/**
 * The email-key IP allowlist judges the address TRUST_PROXY yields: the socket peer unless it is a trusted proxy,
 * then X-Forwarded-For walked from the right past trusted hops. The test app listens on 127.0.0.1, so loopback is
 * the peer every request comes from.
 */
describe('email keys: the IP allowlist trusts X-Forwarded-For only from configured proxies (TRUST_PROXY)', () => {
  let account: TestAccount;
  let token: string;
  const apps: KeyApp[] = [];
  const start = async (trust: TrustProxy, logLines?: string[]) => {
    const logger = logLines
      ? createLogger(
          'info',
          new Writable({
            write(chunk, _enc, done) {
              logLines.push(String(chunk));
              done();
            },
          }),
        )
      : undefined;
    const app = await startKeyApp({ TRUST_PROXY: trust }, logger ? { logger } : {});
    apps.push(app);
    return app;
  };
  const from = (app: KeyApp, forwardedFor?: string) =>
    app.probe(token, { headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } });

  before(async () => {
    account = await newAccount();
    ({ token } = await newEmailKey(account.accountId, { allowedIps: [CLIENT] }));
  });
  after(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  it('off (the default): a forwarded address from any peer is ignored, the peer itself is judged', async () => {
    const app = await start(false);
    assertError(await from(app, CLIENT), 403, 'ip_not_allowed');
    assertError(await from(app), 403, 'ip_not_allowed');
  });

  it('a list of proxies that does not hold the peer: the header is ignored', async () => {
    const app = await start({ proxies: ['10.0.0.0/8'] });
    assertError(await from(app, CLIENT), 403, 'ip_not_allowed');
  });

  it('a list of proxies holding the peer: the first untrusted address from the right is the client', async () => {
    const app = await start(LOOPBACK);
    assert.equal((await from(app, CLIENT)).status, 200);
    assert.equal((await from(app, `198.51.100.9, ${CLIENT}`)).status, 200, 'what the client itself wrote on the left is not read');
    assert.equal((await from(app, `${CLIENT}, 127.0.0.5`)).status, 200, 'a trusted hop is skipped');
    assertError(await from(app, `${CLIENT}, 198.51.100.9`), 403, 'ip_not_allowed'); // a client that spoofs the header
    assertError(await from(app, 'not-an-address'), 403, 'ip_not_allowed');
    assertError(await from(app), 403, 'ip_not_allowed');
  });

  it('a hop count: the address that many hops from the right is the client, whatever the client prepended', async () => {
    const one = await start({ hops: 1 });
    assert.equal((await from(one, CLIENT)).status, 200);
    assertError(await from(one, `${CLIENT}, 198.51.100.9`), 403, 'ip_not_allowed');
    const two = await start({ hops: 2 });
    assert.equal((await from(two, `198.51.100.9, ${CLIENT}, 10.0.0.2`)).status, 200);
    assertError(await from(two, `${CLIENT}, 10.0.0.2, 198.51.100.9`), 403, 'ip_not_allowed');
    assertError(await from(two), 403, 'ip_not_allowed'); // fewer entries than hops: the leftmost one, here the peer
  });

  it('the access log shows the resolved client address', async () => {
    const lines: string[] = [];
    const app = await start(LOOPBACK, lines);
    await from(app, `198.51.100.9, ${CLIENT}`);
    const request = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request' && l.route === '/test/email/probe/send');
    assert.equal(request?.ip, CLIENT, lines.join(''));
  });
});
