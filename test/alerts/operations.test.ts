import assert from 'node:assert/strict';
import { recordJobClosed } from '../../src/alerts/service';
import { alertOverduePrivacyRequests } from '../../src/commerce/sweeps/compliance';
import { raiseInboxItem } from '../../src/inbox/service';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { Receiver, verifyStandardWebhook } from '../email/webhooks/receiver';
import { newShop } from '../commerce/webhooks/receiverKit';
import { createEndpoint, deliveryResult, eventOf, useAlertWorld, type AlertWorld } from './fixtures';

const bodyOf = (receiver: Receiver, i = 0) => JSON.parse(receiver.received[i].body.toString('utf8'));

describe('operations alerts (inbox.urgent, privacy_request.overdue, sweep.partial)', function () {
  this.timeout(60_000);
  let world: AlertWorld;
  let receiver: Receiver;
  let account: TestAccount;
  useAlertWorld('Ops Co', (test) => ({ world, receiver, account } = test));

  const alertsOf = (type: string) => harness().db('alert_events').where({ account_id: account.accountId, type });

  it('a newly raised urgent inbox item sends one signed inbox.urgent (its body left out); a dedup hit or a normal item sends none', async () => {
    const hook = await createEndpoint(world.app, account.ownerToken, { url: receiver.url, events: ['inbox.urgent'] });
    const raise = (urgency: 'urgent' | 'normal', dedupKey: string) =>
      raiseInboxItem(harness().db, account.accountId, {
        kind: 'test_outage',
        urgency,
        dedupKey,
        title: 'The shop stopped sending webhooks',
        body: { customer_id: '42', error: 'token expired' },
      });
    const { item } = await raise('urgent', 'outage-1');
    const again = await raise('urgent', 'outage-1');
    assert.equal(again.created, false);
    await raise('normal', 'other');
    const event = await eventOf(account.accountId, 'inbox.urgent');
    await deliveryResult(event.id);
    assert.equal(receiver.received.length, 1);
    assert.ok(verifyStandardWebhook(hook.secret, receiver.received[0].headers, receiver.received[0].body));
    const body = bodyOf(receiver);
    assert.equal(body.type, 'inbox.urgent');
    assert.deepEqual(body.data.item, {
      id: item.id,
      kind: 'test_outage',
      urgency: 'urgent',
      title: 'The shop stopped sending webhooks',
      created_at: item.created_at.toISOString(),
    });
    assert.ok(!receiver.received[0].body.includes('token expired'));
    assert.equal((await alertsOf('inbox.urgent')).length, 1);
  });

  it('a privacy request unfulfilled after 30 days sends privacy_request.overdue once, naming its inbox item, without customer data', async () => {
    const hook = await createEndpoint(world.app, account.ownerToken, { url: receiver.url, events: ['privacy_request.overdue'] });
    const shop = await newShop({ account });
    const { db } = harness();
    const [request] = await db('commerce_compliance_requests')
      .insert({
        account_id: account.accountId,
        connection_id: shop.connectionId,
        topic: 'customers/redact',
        shop_domain: shop.shopDomain,
        customer_id: '42',
        customer_email: 'late@example.test',
        raw_payload: JSON.stringify({ customer: { id: 42 } }),
        created_at: db.raw('now() - make_interval(days => 31)'),
      })
      .returning('id');
    await alertOverduePrivacyRequests(db, 500);
    await alertOverduePrivacyRequests(db, 500);
    const event = await eventOf(account.accountId, 'privacy_request.overdue');
    await deliveryResult(event.id);
    assert.equal(receiver.received.length, 1);
    assert.ok(verifyStandardWebhook(hook.secret, receiver.received[0].headers, receiver.received[0].body));
    const body = bodyOf(receiver);
    assert.equal(body.data.privacy_request.compliance_request_id, request.id);
    assert.equal(body.data.privacy_request.topic, 'customers/redact');
    assert.ok(!receiver.received[0].body.includes('late@example.test'), 'no customer data');
    const [item] = await db('inbox_items').where({ account_id: account.accountId, kind: 'commerce_privacy_request_overdue' });
    assert.equal(body.data.inbox_item_id, item.id);
  });

  it('a sweep that completes partial sends sweep.partial to each account it names as left unfinished, only to those', async () => {
    const hook = await createEndpoint(world.app, account.ownerToken, { url: receiver.url, events: ['sweep.partial'] });
    const finished = await newAccount('Done Co');
    const finishedReceiver = await Receiver.start();
    try {
      await createEndpoint(world.app, finished.ownerToken, { url: finishedReceiver.url, events: ['sweep.partial'] });
      const ids = await recordJobClosed(
        { db: harness().db, secretHashKey: harness().deps.secretHashKey },
        {
          accountId: '_system',
          job: {
            id: 'cron:commerce-order-backfill:1',
            kind: 'commerce-order-backfill',
            status: 'completed',
            run_id: 'run-1',
            created_at: null,
            closed_at: new Date().toISOString(),
          },
          result: {
            partial: true,
            results: [
              { account_id: account.accountId, connection_id: 'c1', shop_domain: 'a.commerce.test', status: 'partial' },
              { account_id: account.accountId, connection_id: 'c2', shop_domain: 'b.commerce.test', status: 'skipped' },
              { account_id: finished.accountId, connection_id: 'c3', shop_domain: 'c.commerce.test', status: 'done' },
            ],
          },
        },
      );
      assert.equal(ids.length, 1);
      await deliveryResult(ids[0]);
      assert.ok(verifyStandardWebhook(hook.secret, receiver.received[0].headers, receiver.received[0].body));
      const body = bodyOf(receiver);
      assert.equal(body.type, 'sweep.partial');
      assert.deepEqual(body.data.sweep.kind, 'commerce-order-backfill');
      assert.deepEqual(
        body.data.unfinished.map((u: { connection_id: string; status: string }) => [u.connection_id, u.status]),
        [
          ['c1', 'partial'],
          ['c2', 'skipped'],
        ],
      );
      assert.equal(finishedReceiver.received.length, 0);
    } finally {
      await finishedReceiver.close();
    }
  });
});
