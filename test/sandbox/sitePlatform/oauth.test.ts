import assert from 'node:assert/strict';
import { APP, authorizeCode, exchange, world, type World } from './fixtures';

describe('site platform simulator: OAuth', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(() => w.sim.stop());

  it('authorize approves at once and redirects to redirect_uri with a code and the same state', async () => {
    const location = await authorizeCode(w.sim, ['sites:read'], 'csrf-xyz');
    assert.equal(`${location.origin}${location.pathname}`, APP.redirectUri);
    assert.equal(location.searchParams.get('state'), 'csrf-xyz');
    assert.ok((location.searchParams.get('code') ?? '').length >= 20);
  });

  it('a code is exchanged once: the second exchange answers 400 invalid_grant', async () => {
    const code = (await authorizeCode(w.sim)).searchParams.get('code')!;
    const first = await exchange(w.sim, code);
    assert.equal(first.status, 200);
    const body = (await first.json()) as { access_token: string; token_type: string };
    assert.equal(body.token_type, 'bearer');
    const sites = await w.api('/sites', { token: body.access_token });
    assert.equal(sites.status, 200);
    const second = await exchange(w.sim, code);
    assert.equal(second.status, 400);
    assert.equal(((await second.json()) as { error: string }).error, 'invalid_grant');
  });

  it('a wrong client secret is refused and does not burn the code', async () => {
    const code = (await authorizeCode(w.sim)).searchParams.get('code')!;
    assert.equal((await exchange(w.sim, code, 'not-the-secret')).status, 401);
    assert.equal((await exchange(w.sim, code)).status, 200);
  });

  it('a code older than ten minutes, or sent without grant_type authorization_code, is refused', async () => {
    const code = (await authorizeCode(w.sim)).searchParams.get('code')!;
    const noGrant = await fetch(`${w.sim.baseUrl}/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: APP.clientId, client_secret: APP.clientSecret, code }),
    });
    assert.equal(noGrant.status, 400);
    w.clock.advance(10 * 60_000 + 1);
    assert.equal((await exchange(w.sim, code)).status, 400);
  });

  it('authorize refuses an unknown client and a redirect_uri other than the registered one', async () => {
    const bad = await fetch(`${w.sim.baseUrl}/oauth/authorize?client_id=nope&response_type=code&scope=sites:read`, { redirect: 'manual' });
    assert.equal(bad.status, 400);
    const q = new URLSearchParams({
      client_id: APP.clientId,
      response_type: 'code',
      scope: 'sites:read',
      redirect_uri: 'https://evil.test/cb',
    });
    assert.equal((await fetch(`${w.sim.baseUrl}/oauth/authorize?${q}`, { redirect: 'manual' })).status, 400);
  });

  it('revoke_authorization ends the token: the next call answers 401 not_authorized', async () => {
    const code = (await authorizeCode(w.sim)).searchParams.get('code')!;
    const { access_token: token } = (await (await exchange(w.sim, code)).json()) as { access_token: string };
    const res = await fetch(`${w.sim.baseUrl}/oauth/revoke_authorization`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: APP.clientId, client_secret: APP.clientSecret, access_token: token }),
    });
    assert.deepEqual(await res.json(), { didRevoke: true });
    const after = await w.api('/sites', { token });
    assert.equal(after.status, 401);
    assert.equal(((await after.json()) as { code: string }).code, 'not_authorized');
  });
});
