import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { resolveProjectConnection } from '../../../src/commerce/bindings/service';
import { harness } from '../../helpers/harness';
import { newAccount, newUser, type TestAccount } from '../../helpers/accounts';
import { newProjectId } from '../../helpers/projects';
import { connectShop, registerApp, startCommerceWorld, type CommerceWorld } from '../connection/fixtures';

describe('commerce project bindings', () => {
  let world: CommerceWorld;
  let account: TestAccount;
  let defaultId: string;
  let overrideId: string;
  before(async () => {
    world = await startCommerceWorld();
    account = await newAccount();
    await registerApp(world, account);
    defaultId = (await connectShop(world, account)).connection.id;
    overrideId = (await connectShop(world, account)).connection.id;
  });
  after(async () => {
    await world.close();
  });

  const put = (projectId: string, body: unknown, who = account) =>
    world.app.call('PUT', `/api/commerce/projects/${projectId}/settings`, { token: who.ownerToken, body });
  const resolved = (projectId: string, who = account) =>
    world.app.call('GET', `/api/commerce/projects/${projectId}/connection`, { token: who.ownerToken });

  it('a project without settings inherits the account default', async () => {
    const projectId = await newProjectId(account.accountId);
    const settings = await world.app.call('GET', `/api/commerce/projects/${projectId}/settings`, { token: account.ownerToken });
    assert.equal(settings.status, 200);
    assert.deepEqual([settings.body.override_mode, settings.body.configured, settings.body.connection_id], ['inherit', false, null]);
    const res = await resolved(projectId);
    assert.equal(res.body.mode, 'inherit');
    assert.equal(res.body.connection.id, defaultId);
  });

  it('inherit resolves to the default, override to its own connection, disabled to none', async () => {
    const projectId = await newProjectId(account.accountId);
    assert.equal((await put(projectId, { override_mode: 'inherit' })).status, 200);
    assert.equal((await resolved(projectId)).body.connection.id, defaultId);

    const saved = await put(projectId, { override_mode: 'override', connection_id: overrideId, storefront_api_version: '2025-04' });
    assert.equal(saved.status, 200);
    assert.deepEqual(
      [saved.body.override_mode, saved.body.connection_id, saved.body.storefront_api_version, saved.body.configured],
      ['override', overrideId, '2025-04', true],
    );
    const over = await resolved(projectId);
    assert.deepEqual([over.body.mode, over.body.connection.id, over.body.reason], ['override', overrideId, null]);

    assert.equal((await put(projectId, { override_mode: 'disabled' })).status, 200);
    assert.deepEqual((await resolved(projectId)).body, { mode: 'disabled', connection: null, reason: 'disabled' });
    const direct = await resolveProjectConnection(harness().db, account.accountId, projectId);
    assert.deepEqual([direct.mode, direct.connection], ['disabled', null]);
  });

  it('PUT replaces the whole settings: an absent storefront_api_version clears it', async () => {
    const projectId = await newProjectId(account.accountId);
    await put(projectId, { override_mode: 'inherit', storefront_api_version: '2025-01' });
    const res = await put(projectId, { override_mode: 'inherit' });
    assert.equal(res.body.storefront_api_version, null);
  });

  it('concurrent settings PUTs of one project all answer 200 and leave one row holding one of the bodies', async () => {
    const projectId = await newProjectId(account.accountId);
    const bodies = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? { override_mode: 'override', connection_id: overrideId, storefront_api_version: `2025-${String((i % 12) + 1).padStart(2, '0')}` }
        : { override_mode: i % 3 === 0 ? 'disabled' : 'inherit', storefront_api_version: `2024-${String((i % 12) + 1).padStart(2, '0')}` },
    );
    const answers = await Promise.all(bodies.map((body) => put(projectId, body)));
    assert.deepEqual(
      answers.map((res) => [res.status, res.body.code]),
      bodies.map(() => [200, undefined]),
      answers.find((res) => res.status !== 200)?.text,
    );
    const rows = await harness().db('project_commerce_settings').where({ project_id: projectId });
    assert.equal(rows.length, 1);
    const [row] = rows;
    const stored = {
      override_mode: row.override_mode,
      connection_id: row.connection_id,
      storefront_api_version: row.storefront_api_version,
    };
    assert.ok(
      bodies.some(
        (b) =>
          b.override_mode === stored.override_mode &&
          (b.connection_id ?? null) === stored.connection_id &&
          b.storefront_api_version === stored.storefront_api_version,
      ),
      `the stored settings ${JSON.stringify(stored)} are one of the bodies`,
    );
  });

  it('an override to a disconnected connection resolves to none with a reason', async () => {
    const { connection } = await connectShop(world, account);
    const projectId = await newProjectId(account.accountId);
    await put(projectId, { override_mode: 'override', connection_id: connection.id });
    await world.app.call('POST', `/api/commerce/connections/${connection.id}/disconnect`, { token: account.ownerToken });
    assert.deepEqual((await resolved(projectId)).body, { mode: 'override', connection: null, reason: 'connection_disconnected' });
  });

  it('an account without a connected default resolves inherit to none', async () => {
    const lonely = await newAccount();
    assert.deepEqual((await resolved(await newProjectId(lonely.accountId), lonely)).body, {
      mode: 'inherit',
      connection: null,
      reason: 'no_default_connection',
    });
  });

  it('override needs a connection_id; inherit and disabled take none; versions are YYYY-MM; unknown fields are refused', async () => {
    const projectId = await newProjectId(account.accountId);
    const cases: Array<[unknown, string]> = [
      [{ override_mode: 'override' }, 'body.connection_id'],
      [{ override_mode: 'inherit', connection_id: overrideId }, 'body.connection_id'],
      [{ override_mode: 'disabled', connection_id: overrideId }, 'body.connection_id'],
      [{ override_mode: 'sometimes' }, 'body.override_mode'],
      [{ override_mode: 'inherit', storefront_api_version: '2025-4' }, 'body.storefront_api_version'],
      [{ override_mode: 'inherit', storefront_api_version: '2025-13' }, 'body.storefront_api_version'],
      [{ override_mode: 'override', connection_id: 'not-a-uuid' }, 'body.connection_id'],
      [{ override_mode: 'inherit', extra: true }, 'body'],
    ];
    for (const [body, path] of cases) {
      const res = await put(projectId, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, 'validation_failed');
      assert.equal(res.body.errors[0].path, path, JSON.stringify(body));
    }
    assert.equal((await harness().db('project_commerce_settings').where({ project_id: projectId })).length, 0);
  });

  it('a connection of another account, or an unknown one, answers 400 invalid_reference and writes nothing', async () => {
    const other = await newAccount();
    await registerApp(world, other);
    const foreign = (await connectShop(world, other)).connection.id;
    const projectId = await newProjectId(account.accountId);
    for (const id of [foreign, randomUUID()]) {
      const res = await put(projectId, { override_mode: 'override', connection_id: id });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'invalid_reference');
      assert.equal(res.body.field, 'connection_id');
    }
    assert.equal((await harness().db('project_commerce_settings').where({ project_id: projectId })).length, 0);
  });

  it("another account's project id answers 404 project_not_found on every settings route and changes nothing", async () => {
    const projectId = await newProjectId(account.accountId);
    await put(projectId, { override_mode: 'override', connection_id: overrideId });
    const stranger = await newAccount();
    const attempts = [
      await put(projectId, { override_mode: 'disabled' }, stranger),
      await world.app.call('GET', `/api/commerce/projects/${projectId}/settings`, { token: stranger.ownerToken }),
      await resolved(projectId, stranger),
    ];
    for (const res of attempts) assert.deepEqual([res.status, res.body.code], [404, 'project_not_found'], res.text);
    const rows = await harness().db('project_commerce_settings').where({ project_id: projectId });
    assert.deepEqual(
      rows.map((r) => [r.account_id, r.override_mode, r.connection_id]),
      [[account.accountId, 'override', overrideId]],
    );
    assert.equal((await resolved(projectId)).body.connection.id, overrideId);
    await assert.rejects(resolveProjectConnection(harness().db, stranger.accountId, projectId), { status: 404, code: 'project_not_found' });
  });

  it('an unknown project id (a uuid no project has) answers 404 project_not_found and writes nothing', async () => {
    const projectId = randomUUID();
    for (const res of [
      await put(projectId, { override_mode: 'inherit' }),
      await world.app.call('GET', `/api/commerce/projects/${projectId}/settings`, { token: account.ownerToken }),
      await resolved(projectId),
    ])
      assert.deepEqual([res.status, res.body.code], [404, 'project_not_found'], res.text);
    assert.equal((await harness().db('project_commerce_settings').where({ project_id: projectId })).length, 0);
  });

  it('a malformed project id answers 404', async () => {
    for (const path of ['settings', 'connection']) {
      const res = await world.app.call('GET', `/api/commerce/projects/not-a-uuid/${path}`, { token: account.ownerToken });
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'project_not_found');
    }
    assert.equal((await put('not-a-uuid', { override_mode: 'inherit' })).status, 404);
  });

  it('a member may read bindings but not change them', async () => {
    const member = await newUser(account.accountId, 'member');
    const projectId = await newProjectId(account.accountId);
    assert.equal(
      (
        await world.app.call('PUT', `/api/commerce/projects/${projectId}/settings`, {
          token: member.token,
          body: { override_mode: 'disabled' },
        })
      ).status,
      403,
    );
    assert.equal((await world.app.call('GET', `/api/commerce/projects/${projectId}/connection`, { token: member.token })).status, 200);
  });
});
