import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { WebflowClient } from 'webflow-api';
import { createTokenCipher } from '../../../src/crypto/tokenEnvelope';
import { checkConnectionWebhooks } from '../../../src/sitePlatform/sweeps/webhookHealth';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { sdkClient } from '../../clients/sitePlatform/officialSdk';
import { ALL_SCOPES, addClient, depsOf, registerClient, startSiteWorld, type SiteWorld } from '../connections/fixtures';
import { TRIGGERS, connectOAuth, oauthAccount, receiverUrl, subscriptionRows } from './registrationFixtures';

/**
 * Registrations never outlive their connection: a disconnect deletes its registrations on the platform, and whatever
 * it could not delete — or any registration of this receiver whose connection is gone — is deleted by the next
 * registration run on the site. Other receivers' registrations are never touched. The site's registrations are read
 * through the platform's official SDK.
 */
describe('site platform webhook registrations do not outlive their connection', () => {
  let world: SiteWorld;
  before(async () => {
    world = await startSiteWorld();
  });
  after(async () => {
    await world.close();
  });

  /** The platform's API as a site token allowed to manage webhooks sees it (a registration made outside the service). */
  const sdkFor = (siteId: string): WebflowClient =>
    sdkClient(world.sim, world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [siteId], webhooksAllowed: true }));
  const listed = async (siteId: string) => (await sdkFor(siteId).webhooks.list(siteId)).webhooks ?? [];
  const disconnect = (account: TestAccount, id: string) =>
    world.app.call('POST', `/api/site-platform/connections/${id}/disconnect`, { token: account.ownerToken });

  /** Revokes the connection's grant on the platform, as an uninstall there does: the platform answers 401 from then on. */
  async function revokeOnPlatform(client: { clientId: string; clientSecret: string }, connectionId: string) {
    const row = await harness().db('site_platform_connections').where({ id: connectionId }).first();
    const token = createTokenCipher(world.config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY).decrypt(row.access_token_enc).plaintext;
    const res = await fetch(`${world.sim.baseUrl}/oauth/revoke_authorization`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: client.clientId, client_secret: client.clientSecret, access_token: token }),
    });
    assert.deepEqual(await res.json(), { didRevoke: true });
  }

  it("disconnect deletes the connection's registrations on the platform, so disconnect then reconnect leaves exactly the new registrations on the site", async () => {
    const { account, sites } = await oauthAccount(world);
    const siteId = sites[0].id;
    const first = await connectOAuth(world, account);
    assert.equal((await listed(siteId)).length, 11);

    const res = await disconnect(account, first.connection.id);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.webhooks, { removed: 11, remaining: 0 });
    assert.deepEqual(await listed(siteId), [], 'nothing of the disconnected connection stays on the site');
    assert.equal((await subscriptionRows(account.accountId)).length, 0);

    const again = await connectOAuth(world, account);
    assert.notEqual(again.connection.id, first.connection.id);
    const hooks = await listed(siteId);
    assert.deepEqual(hooks.map((h) => h.triggerType).sort(), [...TRIGGERS].sort());
    assert.ok(hooks.every((h) => h.url === receiverUrl(world, again.connection.id)));
    const rows = await subscriptionRows(account.accountId);
    assert.deepEqual(
      rows.map((r) => r.connection_id),
      rows.map(() => again.connection.id),
    );
    assert.equal(rows.length, 11);
  });

  it('registrations a disconnect cannot delete (the token was already revoked on the platform) stay recorded, and the next connect deletes them', async () => {
    const { account, sites, client } = await oauthAccount(world);
    const siteId = sites[0].id;
    const first = await connectOAuth(world, account);
    await revokeOnPlatform(client, first.connection.id);

    const res = await disconnect(account, first.connection.id);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.webhooks, { removed: 0, remaining: 11 });
    assert.equal((await listed(siteId)).length, 11, 'the platform refused the deletes');
    assert.equal((await subscriptionRows(account.accountId)).length, 11, 'the subscription rows record what is left');

    const again = await connectOAuth(world, account);
    assert.deepEqual(again.webhooks.registered, [{ site_id: siteId, created: 11, adopted: 0, deleted: 11, failed: [] }]);
    const hooks = await listed(siteId);
    assert.equal(hooks.length, 11);
    assert.ok(hooks.every((h) => h.url === receiverUrl(world, again.connection.id)));
    const rows = await subscriptionRows(account.accountId);
    assert.equal(rows.length, 11);
    assert.ok(rows.every((r) => r.connection_id === again.connection.id));
  });

  it("an orphan registration of this receiver from a vanished connection is removed at connect; other receivers' registrations and another account's live ones are never touched", async () => {
    const { account, sites } = await oauthAccount(world);
    const siteId = sites[0].id;
    // Another account holds the same site with a live connection of its own (an agency and its client).
    const neighbour = await newAccount();
    await registerClient(world, neighbour, addClient(world, [siteId]));
    const theirs = await connectOAuth(world, neighbour);

    const sdk = sdkFor(siteId);
    const orphan = await sdk.webhooks.create(siteId, { triggerType: 'site_publish', url: receiverUrl(world, randomUUID()) });
    const others = [
      await sdk.webhooks.create(siteId, { triggerType: 'site_publish', url: 'https://elsewhere.example.test/hooks/site' }),
      // The same path at another deployment's address is that deployment's receiver, not ours.
      await sdk.webhooks.create(siteId, {
        triggerType: 'form_submission',
        url: `https://staging.example.test/api/webhooks/site-platform/${randomUUID()}/token`,
      }),
    ];

    const ours = await connectOAuth(world, account);
    assert.deepEqual(ours.webhooks.registered, [{ site_id: siteId, created: 11, adopted: 0, deleted: 1, failed: [] }]);
    const hooks = await listed(siteId);
    const ids = new Set(hooks.map((h) => h.id));
    assert.ok(!ids.has(orphan.id!), 'the orphan is deleted');
    for (const other of others) assert.ok(ids.has(other.id!), `${other.url} is another receiver's and stays`);
    assert.equal(
      hooks.filter((h) => h.url === receiverUrl(world, theirs.connection.id)).length,
      11,
      "the other account's live registrations stay",
    );
    assert.equal(hooks.filter((h) => h.url === receiverUrl(world, ours.connection.id)).length, 11);
    assert.equal(hooks.length, 11 + 11 + others.length);
    assert.equal((await subscriptionRows(neighbour.accountId, siteId)).length, 11);
  });

  it('the webhook-health check of a connection sharing the site deletes the registrations a disconnect left recorded', async () => {
    const { account, sites, client } = await oauthAccount(world);
    const siteId = sites[0].id;
    const gone = await connectOAuth(world, account);
    const neighbour = await newAccount();
    await registerClient(world, neighbour, addClient(world, [siteId]));
    const live = await connectOAuth(world, neighbour);
    await revokeOnPlatform(client, gone.connection.id);
    assert.deepEqual((await disconnect(account, gone.connection.id)).body.webhooks, { removed: 0, remaining: 11 });
    const other = await sdkFor(siteId).webhooks.create(siteId, { triggerType: 'page_created', url: 'https://elsewhere.example.test/p' });

    const result = await checkConnectionWebhooks(depsOf(world), {
      accountId: neighbour.accountId,
      connectionId: live.connection.id,
      authKind: 'oauth',
    });
    assert.deepEqual([result.status, result.orphans, result.missing, result.registration?.deleted], ['reregistered', 11, 0, 11]);
    const hooks = await listed(siteId);
    assert.deepEqual(
      hooks
        .map((h) => h.url)
        .filter((u) => u !== receiverUrl(world, live.connection.id))
        .sort(),
      [other.url],
    );
    assert.equal(hooks.length, 12);
    assert.equal((await subscriptionRows(account.accountId)).length, 0, 'the recorded rows went with their registrations');
  });
});
