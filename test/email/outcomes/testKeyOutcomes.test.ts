import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { authenticateEmailKeyToken } from '../../../src/email/keys/authenticate';
import { messageOutcomes, simulateTestOutcomes, SIMULATOR_DOMAIN } from '../../../src/email/outcomes';
import { prepareMessage } from '../../../src/email/send/prepare';
import { parseMessage } from '../../../src/email/send/schema';
import { harness } from '../../helpers/harness';
import { emailKey, message, senderAccount, startSendWorld, type SendWorld } from '../send/kit';
import { eventsOf, suppressionRows } from './kit';

// Live once the lead calls simulateTestOutcomes from the send path (src/email/send/service.ts); until then the
// simulation itself is proven by calling it as the send path will.
const wired = readFileSync(require.resolve('../../../src/email/send/service.ts'), 'utf8').includes('simulateTestOutcomes');

describe('test keys simulate outcomes for simulator.workyard.test addresses', () => {
  let world: SendWorld;

  before(async () => {
    world = await startSendWorld();
  });
  after(async () => {
    await world.close();
  });

  /** What the send path does for an admitted test-key message. */
  async function simulate(accountId: string, token: string, body: Record<string, unknown>) {
    const auth = await authenticateEmailKeyToken('email:send', token, '127.0.0.1', world.app.deps);
    const parsed = parseMessage(body, 'body');
    assert.ok(parsed.ok);
    const prepared = await prepareMessage(world.app.deps, auth, parsed.message);
    assert.equal(await simulateTestOutcomes(world.app.deps, auth, [prepared]), 1);
    return prepared.id;
  }

  it('delivered@, bounced@ and complained@ get email.sent then their outcome, are stored simulated, and suppress nothing', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const id = await simulate(
      account.accountId,
      token,
      message({ to: [`delivered@${SIMULATOR_DOMAIN}`, `bounced+signup@${SIMULATOR_DOMAIN}`], cc: `complained@${SIMULATOR_DOMAIN}` }),
    );
    const events = await eventsOf(account.accountId);
    assert.deepEqual(
      events.map((e) => `${e.type} ${e.data.recipient ?? ''}`.trim()),
      [
        'email.sent',
        `email.delivered delivered@${SIMULATOR_DOMAIN}`,
        `email.bounced bounced+signup@${SIMULATOR_DOMAIN}`,
        `email.delivered complained@${SIMULATOR_DOMAIN}`,
        `email.complained complained@${SIMULATOR_DOMAIN}`,
      ],
    );
    assert.ok(events.every((e) => e.data.test === true && e.data.email_id === id));
    const row = await harness().db('email_messages').where({ id }).first();
    assert.equal(row.status, 'simulated');
    assert.deepEqual(await suppressionRows(account.accountId), []);
    const outcomes = (await messageOutcomes(harness().db, account.accountId, id))!;
    assert.equal(outcomes.state, 'complained');
    assert.ok(outcomes.delivered_at && outcomes.bounced_at && outcomes.complained_at);
    assert.equal(world.smtp.dataReceived, 0, 'no mail');
  });

  it('a test send to other addresses stores nothing and emits nothing; a live key is never simulated', async () => {
    const account = await senderAccount();
    const test = await emailKey(account.accountId, { environment: 'test' });
    const auth = await authenticateEmailKeyToken('email:send', test.token, '127.0.0.1', world.app.deps);
    const parsed = parseMessage(message(), 'body');
    assert.ok(parsed.ok);
    assert.equal(await simulateTestOutcomes(world.app.deps, auth, [await prepareMessage(world.app.deps, auth, parsed.message)]), 0);
    const live = await emailKey(account.accountId);
    const liveAuth = await authenticateEmailKeyToken('email:send', live.token, '127.0.0.1', world.app.deps);
    const toSimulator = parseMessage(message({ to: `bounced@${SIMULATOR_DOMAIN}` }), 'body');
    assert.ok(toSimulator.ok);
    assert.equal(
      await simulateTestOutcomes(world.app.deps, liveAuth, [await prepareMessage(world.app.deps, liveAuth, toSimulator.message)]),
      0,
    );
    assert.deepEqual(await eventsOf(account.accountId), []);
    assert.deepEqual(await harness().db('email_messages').where({ account_id: account.accountId }), []);
  });

  (wired ? it : it.skip)(
    'through POST /v1/email/send: bounced@simulator.workyard.test answers simulated, then email.sent and email.bounced',
    async () => {
      const account = await senderAccount();
      const { token } = await emailKey(account.accountId, { environment: 'test' });
      const res = await world.app.call('POST', '/v1/email/send', { token, body: message({ to: `bounced@${SIMULATOR_DOMAIN}` }) });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, 'simulated');
      assert.deepEqual(
        (await eventsOf(account.accountId)).map((e) => e.type),
        ['email.sent', 'email.bounced'],
      );
    },
  );
});
