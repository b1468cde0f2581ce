import assert from 'node:assert/strict';
import { createSitePlatformClient, exchangeAuthorizationCode, revokeAuthorization } from '../../../src/clients/sitePlatform';
import { APP, SCOPES, world, rejectsWith, type World } from './fixtures';

async function authorize(w: World): Promise<string> {
  const query = new URLSearchParams({
    client_id: APP.clientId,
    response_type: 'code',
    scope: SCOPES.join(' '),
    state: 's',
    redirect_uri: APP.redirectUri,
  });
  const res = await fetch(`${w.sim.baseUrl}/oauth/authorize?${query}`, { redirect: 'manual' });
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

describe('site platform client: OAuth', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(() => w.sim.stop());

  const creds = { clientId: APP.clientId, clientSecret: APP.clientSecret, timeoutMs: 2000 };

  it('exchanges a code for a token that introspects as an OAuth grant with its authorizing user', async () => {
    const code = await authorize(w);
    const { accessToken } = await exchangeAuthorizationCode({ ...creds, apiUrl: w.sim.baseUrl, code, redirectUri: APP.redirectUri });
    const client = createSitePlatformClient({ apiUrl: w.sim.baseUrl, token: accessToken, timeoutMs: 2000 });
    const info = await client.introspect();
    assert.equal(info.grantType, 'authorization_code');
    assert.equal(info.application?.id, APP.clientId);
    assert.equal(info.authorizedTo.userIds.length, 1);
    assert.equal((await client.authorizedBy()).email, 'owner@example.test');
    assert.deepEqual(w.seen('/oauth/access_token'), [{ method: 'POST', status: 200 }]);
  });

  it('a used code is refused as platform_validation, and the client secret is not in the error', async () => {
    const code = await authorize(w);
    await exchangeAuthorizationCode({ ...creds, apiUrl: w.sim.baseUrl, code });
    await rejectsWith(exchangeAuthorizationCode({ ...creds, apiUrl: w.sim.baseUrl, code }), 422, 'platform_validation', APP.clientSecret);
  });

  it('revoking ends the authorization: the token then answers 401 platform_auth', async () => {
    const { accessToken } = await exchangeAuthorizationCode({ ...creds, apiUrl: w.sim.baseUrl, code: await authorize(w) });
    await revokeAuthorization({ ...creds, authUrl: w.sim.baseUrl, accessToken });
    const client = createSitePlatformClient({ apiUrl: w.sim.baseUrl, token: accessToken, timeoutMs: 2000 });
    await rejectsWith(client.introspect(), 401, 'platform_auth', accessToken);
  });

  it('wrong client credentials answer 401 platform_auth', async () => {
    await rejectsWith(
      revokeAuthorization({ ...creds, clientSecret: 'nope', authUrl: w.sim.baseUrl, accessToken: w.token }),
      401,
      'platform_auth',
      w.token,
    );
  });
});
