import assert from 'node:assert/strict';
import { authorizeCode, exchange, world, type World } from './fixtures';

interface Introspection {
  authorization: {
    grantType: string;
    rateLimit: number;
    scope: string;
    authorizedTo: { siteIds: string[]; workspaceIds: string[]; userIds: string[] };
  };
  application?: { id: string };
}

describe('site platform simulator: token introspection', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(() => w.sim.stop());

  it("introspect reports an OAuth grant's scopes, workspace, user, application and plan rate limit", async () => {
    w.sim.setUser({ email: 'ada@maple.test' });
    const code = (await authorizeCode(w.sim, ['sites:read', 'cms:read'])).searchParams.get('code')!;
    const { access_token: token } = (await (await exchange(w.sim, code)).json()) as { access_token: string };
    const res = await fetch(`${w.sim.baseUrl}/token/introspect`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as Introspection;
    assert.equal(body.authorization.grantType, 'authorization_code');
    assert.equal(body.authorization.scope, 'sites:read,cms:read');
    assert.equal(body.authorization.rateLimit, 60);
    assert.deepEqual(body.authorization.authorizedTo.siteIds, [w.site.id]);
    assert.deepEqual(body.authorization.authorizedTo.workspaceIds, ['ws-maple']);
    assert.equal(body.authorization.authorizedTo.userIds.length, 1);
    assert.equal(body.application?.id, 'site-app-1');
  });

  it('a pasted site token has no application and no user, and its plan sets the rate limit', async () => {
    const token = w.sim.issueToken({ scopes: ['sites:read'], plan: 120 });
    const body = (await (await w.api('/token/introspect', { token })).json()) as Introspection;
    assert.equal(body.authorization.grantType, 'client_credentials');
    assert.equal(body.authorization.rateLimit, 120);
    assert.deepEqual(body.authorization.authorizedTo.userIds, []);
    assert.equal(body.application, undefined);
  });

  it('authorized_by names the authorizing user for OAuth and refuses a site token', async () => {
    w.sim.setUser({ email: 'ada@maple.test', firstName: 'Ada' });
    const code = (await authorizeCode(w.sim)).searchParams.get('code')!;
    const { access_token: token } = (await (await exchange(w.sim, code)).json()) as { access_token: string };
    const user = (await (await w.api('/token/authorized_by', { token })).json()) as { email: string; firstName: string };
    assert.deepEqual([user.email, user.firstName], ['ada@maple.test', 'Ada']);
    assert.equal((await w.api('/token/authorized_by')).status, 403);
  });
});
