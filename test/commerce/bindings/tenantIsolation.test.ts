import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { resolveProjectConnection } from '../../../src/commerce/bindings/service';
import { harness } from '../../helpers/harness';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { connectShop, registerApp, startCommerceWorld, type CommerceWorld } from '../connection/fixtures';

/** Rule: nothing one tenant does may block another; project settings are keyed by (account, project). */
describe('commerce project settings: one account never blocks another', () => {
  let world: CommerceWorld;
  let owner: TestAccount;
  let squatter: TestAccount;
  let ownerConnection: string;
  let squatterConnection: string;
  before(async () => {
    world = await startCommerceWorld();
    owner = await newAccount();
    squatter = await newAccount();
    await registerApp(world, owner);
    await registerApp(world, squatter);
    ownerConnection = (await connectShop(world, owner)).connection.id;
    squatterConnection = (await connectShop(world, squatter)).connection.id;
  });
  after(async () => { await world.close(); });

  const put = (who: TestAccount, projectId: string, body: unknown) =>
    world.app.call('PUT', `/api/commerce/projects/${projectId}/settings`, { token: who.ownerToken, body });
  const get = (who: TestAccount, projectId: string, what: 'settings' | 'connection' = 'settings') =>
    world.app.call('GET', `/api/commerce/projects/${projectId}/${what}`, { token: who.ownerToken });

  it('B saving settings for A\'s project id first leaves A free to read and write its own', async () => {
    const projectId = randomUUID();
    const squat = await put(squatter, projectId, { override_mode: 'disabled' });
    assert.equal(squat.status, 200);

    const before = await get(owner, projectId);
    assert.equal(before.status, 200, 'A is not locked out');
    assert.deepEqual([before.body.override_mode, before.body.configured], ['inherit', false], 'A does not see B\'s settings');

    const saved = await put(owner, projectId, { override_mode: 'override', connection_id: ownerConnection, storefront_api_version: '2025-04' });
    assert.equal(saved.status, 200);
    assert.deepEqual([saved.body.override_mode, saved.body.connection_id, saved.body.configured], ['override', ownerConnection, true]);
    const resolved = await get(owner, projectId, 'connection');
    assert.deepEqual([resolved.status, resolved.body.mode, resolved.body.connection?.id], [200, 'override', ownerConnection]);

    const theirs = await get(squatter, projectId);
    assert.deepEqual([theirs.body.override_mode, theirs.body.connection_id], ['disabled', null], 'B keeps its own settings, untouched by A');
    assert.deepEqual((await get(squatter, projectId, 'connection')).body, { mode: 'disabled', connection: null, reason: 'disabled' });
  });

  it('B writing after A changes nothing of A\'s settings', async () => {
    const projectId = randomUUID();
    await put(owner, projectId, { override_mode: 'override', connection_id: ownerConnection });
    const theirs = await put(squatter, projectId, { override_mode: 'override', connection_id: squatterConnection });
    assert.equal(theirs.status, 200);
    const mine = await get(owner, projectId);
    assert.deepEqual([mine.body.override_mode, mine.body.connection_id], ['override', ownerConnection]);
    assert.equal((await get(owner, projectId, 'connection')).body.connection.id, ownerConnection);
    const rows = await harness().db('project_commerce_settings').where({ project_id: projectId }).orderBy('account_id');
    assert.equal(rows.length, 2);
    assert.deepEqual(new Set(rows.map((r) => r.account_id)), new Set([owner.accountId, squatter.accountId]));
  });

  it('resolution reads only the caller\'s own row', async () => {
    const projectId = randomUUID();
    await put(squatter, projectId, { override_mode: 'override', connection_id: squatterConnection });
    const direct = await resolveProjectConnection(harness().db, owner.accountId, projectId);
    assert.deepEqual([direct.mode, direct.connection?.id], ['inherit', ownerConnection]);
  });
});
