import assert from 'node:assert/strict';
import { authenticateAgentKey } from '../../src/auth/service';
import { newAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { childEnv, removeTempDirs, runMain, tempDir } from './child';

/** The CLI against the harness's database, hashing with the harness's key so its credentials work in the test app. */
async function cliEnv() {
  const h = harness();
  return childEnv({ DATABASE_URL: h.databaseUrl, SECRET_HASH_KEY: h.deps.secretHashKey, DATA_DIR: await tempDir('wy-cli-') });
}

async function keyCount(accountId: string): Promise<number> {
  const [{ count }] = await harness().db('agent_keys').where({ account_id: accountId }).count<{ count: number }[]>('* as count');
  return Number(count);
}

describe('command line', () => {
  after(removeTempDirs);

  it('an unknown command exits 2 with a message', async () => {
    const result = await runMain(['frobnicate'], childEnv({}));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown command "frobnicate"/);
  });

  it('an unknown flag exits 2 naming the flag', async () => {
    const result = await runMain(['migrate', '--fast'], childEnv({}));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--fast/);
  });

  it('help lists every command and exits 0', async () => {
    const result = await runMain(['help'], childEnv({}));
    assert.equal(result.code, 0);
    for (const command of ['start', 'api', 'worker', 'migrate', 'schedules sync', 'account create', 'key create', 'bundle']) {
      assert.match(result.stdout, new RegExp(`^  ${command}`, 'm'));
    }
  });

  it('account create without --name exits 2 and creates nothing', async () => {
    const result = await runMain(['account', 'create', '--json'], await cliEnv());
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--name is required/);
    assert.equal(result.stdout, '');
  });

  it('account create --json prints exactly one JSON object whose owner token and agent key work against the API', async () => {
    const result = await runMain(['account', 'create', '--name', 'Cli Co', '--owner-email', 'boss@cli.test', '--json'], await cliEnv());
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim().split('\n').length, 1, `stdout is not one line:\n${result.stdout}`);
    const printed = JSON.parse(result.stdout);
    assert.deepEqual(Object.keys(printed).sort(), ['account', 'agent_key', 'owner_token']);
    assert.deepEqual(Object.keys(printed.account).sort(), ['id', 'name']);
    assert.equal(printed.account.name, 'Cli Co');

    const me = await call('GET', '/api/me', { token: printed.owner_token });
    assert.equal(me.status, 200);
    assert.equal(me.body.account.id, printed.account.id);
    assert.equal(me.body.user.email, 'boss@cli.test');
    assert.equal(me.body.user.role, 'owner');

    const agent = await authenticateAgentKey(harness().db, harness().deps.secretHashKey, printed.agent_key);
    assert.equal(agent?.kind, 'agent');
    assert.equal(agent.kind === 'agent' && agent.accountId, printed.account.id);
  });

  it('key create rejects an unknown permission with exit 2, names it and creates no key', async () => {
    const account = await newAccount();
    const before = await keyCount(account.accountId);
    const result = await runMain(
      ['key', 'create', '--account', account.accountId, '--name', 'bot', '--permissions', 'crm:read,crm:destroy'],
      await cliEnv(),
    );
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown permission "crm:destroy"/);
    assert.match(result.stderr, /known: crm:read/);
    assert.equal(await keyCount(account.accountId), before);
  });

  it('key create --json makes a key holding exactly the given permissions, read-only when asked', async () => {
    const account = await newAccount();
    const result = await runMain(
      [
        'key',
        'create',
        '--account',
        account.accountId,
        '--name',
        'reporter',
        '--permissions',
        'crm:read, jobs:read',
        '--read-only',
        '--json',
      ],
      await cliEnv(),
    );
    assert.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout);
    assert.equal(printed.account_id, account.accountId);
    assert.equal(printed.name, 'reporter');
    assert.deepEqual(printed.permissions, ['crm:read', 'jobs:read']);
    assert.equal(printed.read_only, true);
    assert.equal(printed.token_hint, printed.token.slice(-4));

    const agent = await authenticateAgentKey(harness().db, harness().deps.secretHashKey, printed.token);
    assert.deepEqual(agent, {
      kind: 'agent',
      accountId: account.accountId,
      keyId: printed.id,
      permissions: ['crm:read', 'jobs:read'],
      readOnly: true,
    });
  });

  it('key create for an account that does not exist exits 1 and says so', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const result = await runMain(['key', 'create', '--account', missing, '--name', 'bot', '--permissions', 'all'], await cliEnv());
    assert.equal(result.code, 1);
    assert.match(result.stderr, new RegExp(`no account with id ${missing}`));
  });

  it('key create with an account id that is not a UUID exits 2', async () => {
    const result = await runMain(['key', 'create', '--account', 'acme', '--name', 'bot', '--permissions', 'all'], await cliEnv());
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--account "acme" is not an account id/);
  });
  it("key list --json prints the account's keys as the API answers them, never a token; key revoke refuses the key at once", async () => {
    const account = await newAccount('Cli Keys Co');
    const env = await cliEnv();
    const listed = await runMain(['key', 'list', '--account', account.accountId, '--json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    const keys = JSON.parse(listed.stdout);
    const api = await call('GET', '/api/agent-keys', { token: account.ownerToken });
    assert.deepEqual(keys, api.body.data);
    assert.equal(keys.length, 1);
    assert.doesNotMatch(listed.stdout, new RegExp(account.agentKey.slice(-20)));
    assert.equal((await call('GET', '/api/agent/me', { token: account.agentKey })).status, 200);

    const revoked = await runMain(['key', 'revoke', '--account', account.accountId, '--key', keys[0].id, '--json'], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(JSON.parse(revoked.stdout).id, keys[0].id);
    assert.ok(JSON.parse(revoked.stdout).revoked_at);
    assert.equal((await call('GET', '/api/agent/me', { token: account.agentKey })).status, 401);
    const text = await runMain(['key', 'list', '--account', account.accountId], env);
    assert.match(text.stdout, new RegExp(`^${keys[0].id} .* revoked `, 'm'));
  });

  it("key revoke of another account's key or a missing one exits 1 and revokes nothing", async () => {
    const [mine, theirs] = [await newAccount('Cli Mine Co'), await newAccount('Cli Theirs Co')];
    const env = await cliEnv();
    const [theirKey] = JSON.parse((await runMain(['key', 'list', '--account', theirs.accountId, '--json'], env)).stdout);
    const result = await runMain(['key', 'revoke', '--account', mine.accountId, '--key', theirKey.id], env);
    assert.equal(result.code, 1);
    assert.match(result.stderr, new RegExp(`account ${mine.accountId} has no key with id ${theirKey.id}`));
    assert.equal((await call('GET', '/api/agent/me', { token: theirs.agentKey })).status, 200);
  });

  it('account list --json includes every account as the API answers one', async () => {
    const account = await newAccount('Cli Listed Co');
    const result = await runMain(['account', 'list', '--json'], await cliEnv());
    assert.equal(result.code, 0, result.stderr);
    const accounts = JSON.parse(result.stdout);
    const me = await call('GET', '/api/me', { token: account.ownerToken });
    assert.deepEqual(
      accounts.find((a: { id: string }) => a.id === account.accountId),
      me.body.account,
    );
  });
});
