import assert from 'node:assert/strict';
import { resolveProjectConnection } from '../../../src/commerce/bindings/service';
import { harness } from '../../helpers/harness';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { newProjectId } from '../../helpers/projects';
import { connectShop, registerApp, startCommerceWorld, type CommerceWorld } from '../connection/fixtures';

/**
 * Rule: a project belongs to one account, so its commerce settings are that account's alone. Another
 * account's project id answers like a missing one (404 project_not_found) and changes nothing.
 */
describe("commerce project settings: another account's project is not found", () => {
  let world: CommerceWorld;
  let owner: TestAccount;
  let stranger: TestAccount;
  let ownerConnection: string;
  let strangerConnection: string;
  before(async () => {
    world = await startCommerceWorld();
    owner = await newAccount();
    stranger = await newAccount();
    await registerApp(world, owner);
    await registerApp(world, stranger);
    ownerConnection = (await connectShop(world, owner)).connection.id;
    strangerConnection = (await connectShop(world, stranger)).connection.id;
  });
  after(async () => {
    await world.close();
  });

  const put = (who: TestAccount, projectId: string, body: unknown) =>
    world.app.call('PUT', `/api/commerce/projects/${projectId}/settings`, { token: who.ownerToken, body });
  const get = (who: TestAccount, projectId: string, what: 'settings' | 'connection' = 'settings') =>
    world.app.call('GET', `/api/commerce/projects/${projectId}/${what}`, { token: who.ownerToken });
  const assertProjectNotFound = (res: { status: number; body: any; text: string }) =>
    assert.deepEqual([res.status, res.body.code], [404, 'project_not_found'], res.text);

  it("another account's project id answers 404 on PUT settings and writes nothing", async () => {
    const projectId = await newProjectId(owner.accountId);
    assertProjectNotFound(await put(stranger, projectId, { override_mode: 'disabled' }));
    assertProjectNotFound(await put(stranger, projectId, { override_mode: 'override', connection_id: strangerConnection }));
    assert.equal((await harness().db('project_commerce_settings').where({ project_id: projectId })).length, 0);

    const mine = await get(owner, projectId);
    assert.deepEqual([mine.status, mine.body.override_mode, mine.body.configured], [200, 'inherit', false]);
  });

  it("another account's project id answers 404 on GET settings and GET connection, and its settings stay the owner's", async () => {
    const projectId = await newProjectId(owner.accountId);
    assert.equal(
      (await put(owner, projectId, { override_mode: 'override', connection_id: ownerConnection, storefront_api_version: '2025-04' }))
        .status,
      200,
    );
    assertProjectNotFound(await get(stranger, projectId));
    assertProjectNotFound(await get(stranger, projectId, 'connection'));

    const mine = await get(owner, projectId);
    assert.deepEqual(
      [mine.body.override_mode, mine.body.connection_id, mine.body.storefront_api_version],
      ['override', ownerConnection, '2025-04'],
    );
    assert.equal((await get(owner, projectId, 'connection')).body.connection.id, ownerConnection);
  });

  it("resolution of another account's project is 404 project_not_found, never the owner's connection", async () => {
    const projectId = await newProjectId(owner.accountId);
    await put(owner, projectId, { override_mode: 'override', connection_id: ownerConnection });
    await assert.rejects(resolveProjectConnection(harness().db, stranger.accountId, projectId), { status: 404, code: 'project_not_found' });
    const direct = await resolveProjectConnection(harness().db, owner.accountId, projectId);
    assert.deepEqual([direct.mode, direct.connection?.id], ['override', ownerConnection]);
  });
});
