import assert from 'node:assert/strict';
import { readPlan, reserveImageUnit, setPlan } from '../../src/billing/service';
import { newAccount, newAgentKey, newUser } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { childEnv, removeTempDirs, runMain, tempDir } from '../runtime/child';

async function cliEnv() {
  return childEnv({ DATABASE_URL: harness().databaseUrl, DATA_DIR: await tempDir('wy-plan-') });
}

describe('account plan', () => {
  after(removeTempDirs);

  it('an account without a plan row has the default plan: standard, unlimited images, good standing', async () => {
    const account = await newAccount();
    assert.deepEqual(await readPlan(harness().db, account.accountId), {
      plan: 'standard',
      image_allowance_monthly: null,
      billing_standing: 'good',
    });
    const res = await call('GET', '/api/account/plan', { token: account.ownerToken });
    assert.equal(res.status, 200);
    assert.equal(res.body.plan, 'standard');
    assert.equal(res.body.image_allowance_monthly, null);
    assert.equal(res.body.billing_standing, 'good');
    assert.equal(res.body.images.allowance, null);
    assert.equal(res.body.images.remaining, null);
    assert.equal(res.body.images.period, new Date().toISOString().slice(0, 7));
  });

  it('members read the plan with used, reserved and remaining of this month', async () => {
    const account = await newAccount();
    const member = await newUser(account.accountId, 'member');
    await setPlan(harness().db, account.accountId, { plan: 'growth', image_allowance_monthly: 5 });
    await reserveImageUnit(harness().db, account.accountId, 'run-1:hero');
    const res = await call('GET', '/api/account/plan', { token: member.token });
    assert.equal(res.status, 200);
    assert.equal(res.body.plan, 'growth');
    assert.deepEqual(
      {
        allowance: res.body.images.allowance,
        used: res.body.images.used,
        reserved: res.body.images.reserved,
        remaining: res.body.images.remaining,
      },
      { allowance: 5, used: 0, reserved: 1, remaining: 4 },
    );
    assert.match(res.body.images.resets_at, /^\d{4}-\d{2}-01T00:00:00\.000Z$/);
  });

  it('the agent twin answers the same plan to any agent key, read-only included', async () => {
    const account = await newAccount();
    await setPlan(harness().db, account.accountId, { image_allowance_monthly: 3 });
    const key = await newAgentKey(account.accountId, ['crm:read'], true);
    const res = await call('GET', '/api/agent/account/plan', { token: key });
    assert.equal(res.status, 200);
    assert.equal(res.body.images.remaining, 3);
  });

  it('the plan route needs a credential', async () => {
    assert.equal((await call('GET', '/api/account/plan')).status, 401);
    assert.equal((await call('GET', '/api/agent/account/plan')).status, 401);
  });

  it('the CLI sets allowance and standing, keeps the fields it is not given, and prints the plan', async () => {
    const account = await newAccount();
    const env = await cliEnv();
    const set = await runMain(
      ['account', 'plan', '--account', account.accountId, '--plan', 'pro', '--image-allowance', '20', '--standing', 'past_due', '--json'],
      env,
    );
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(JSON.parse(set.stdout), {
      account_id: account.accountId,
      plan: 'pro',
      image_allowance_monthly: 20,
      billing_standing: 'past_due',
    });

    const unlimited = await runMain(['account', 'plan', '--account', account.accountId, '--image-allowance', 'unlimited', '--json'], env);
    assert.equal(unlimited.code, 0, unlimited.stderr);
    assert.deepEqual(await readPlan(harness().db, account.accountId), {
      plan: 'pro',
      image_allowance_monthly: null,
      billing_standing: 'past_due',
    });

    const res = await call('GET', '/api/account/plan', { token: account.ownerToken });
    assert.equal(res.body.billing_standing, 'past_due');
  });

  it('the CLI refuses a bad allowance or standing with exit 2 and changes nothing', async () => {
    const account = await newAccount();
    const env = await cliEnv();
    const badAllowance = await runMain(['account', 'plan', '--account', account.accountId, '--image-allowance', '2.5'], env);
    assert.equal(badAllowance.code, 2);
    assert.match(badAllowance.stderr, /--image-allowance "2.5"/);
    const badStanding = await runMain(['account', 'plan', '--account', account.accountId, '--standing', 'late'], env);
    assert.equal(badStanding.code, 2);
    assert.match(badStanding.stderr, /--standing "late" is not one of good, past_due, unpaid, suspended/);
    assert.equal(await harness().db('account_plans').where({ account_id: account.accountId }).first(), undefined);
  });

  it('the CLI for an account that does not exist exits 1 and says so', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const result = await runMain(['account', 'plan', '--account', missing, '--image-allowance', '5'], await cliEnv());
    assert.equal(result.code, 1);
    assert.match(result.stderr, new RegExp(`no account with id ${missing}`));
  });
});
