import assert from 'node:assert/strict';
import { AccountIdKey, JobKindKey, SYSTEM_ACCOUNT } from '../../src/temporal/searchAttributes';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { testRoutes } from '../helpers/testRoutes';
import { startPrivateApp } from '../helpers/privateApp';

const cronToken = () => harness().deps.config.CRON_SECRET!;

describe('cron route: POST /api/cron/{name}', () => {
  it("runs the schedule's workflow now and answers 202 with the run", async () => {
    const res = await call('POST', '/api/cron/test-quick-sweep', { token: cronToken() });
    assert.equal(res.status, 202);
    assert.match(res.body.id, /^cron:test-quick-sweep:[0-9a-f-]{36}$/);
    assert.equal(res.body.kind, 'test-quick-sweep');
    const handle = harness().client.workflow.getHandle(res.body.id);
    assert.deepEqual(await harness().client.withDeadline(Date.now() + 10_000, () => handle.result()), {
      value: 'swept',
      run_id: res.body.run_id,
    });
    const run = await handle.describe();
    assert.equal(run.type, 'quickJobWorkflow');
    assert.equal(run.typedSearchAttributes.get(AccountIdKey), SYSTEM_ACCOUNT);
    assert.equal(run.typedSearchAttributes.get(JobKindKey), 'test-quick-sweep');
  });

  it('each call is a new run', async () => {
    const first = await call('POST', '/api/cron/test-quick-sweep', { token: cronToken() });
    const second = await call('POST', '/api/cron/test-quick-sweep', { token: cronToken() });
    assert.notEqual(first.body.id, second.body.id);
  });

  it('an unknown schedule answers 404 schedule_not_found', async () => {
    const res = await call('POST', '/api/cron/no-such-sweep', { token: cronToken() });
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'schedule_not_found');
  });

  it('a missing secret answers 401 missing_credentials and an invalid one 401 invalid_credentials', async () => {
    const missing = await call('POST', '/api/cron/test-quick-sweep');
    assert.equal(missing.status, 401);
    assert.equal(missing.body.code, 'missing_credentials');
    const invalid = await call('POST', '/api/cron/test-quick-sweep', { token: `${cronToken()}x` });
    assert.equal(invalid.status, 401);
    assert.equal(invalid.body.code, 'invalid_credentials');
  });

  it('a session token is not a cron secret', async () => {
    const res = await call('POST', '/api/cron/test-quick-sweep', { token: 'wys_not_a_cron_secret' });
    assert.equal(res.status, 401);
  });

  it('with CRON_SECRET unset every call answers 401 cron_secret_unset', async () => {
    const app = await startPrivateApp(testRoutes(), { config: { CRON_SECRET: undefined } });
    try {
      for (const token of [undefined, cronToken()]) {
        const res = await app.call('POST', '/api/cron/test-quick-sweep', { token });
        assert.equal(res.status, 401);
        assert.equal(res.body.code, 'cron_secret_unset');
      }
    } finally {
      await app.close();
    }
  });
});
