import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { deliverAndProcess, newShop } from '../webhooks/receiverKit';
import { fulfilled, pii, requestPrivacy } from './privacyKit';

/** Rule: customers/redact anonymises the customer's stored data — the order triggers in the workflow outbox included. */
describe('privacy: customers/redact and the order triggers', () => {
  it("the customer's order triggers lose the email and the contact link; another customer's keep theirs", async () => {
    const shop = await newShop();
    const mine = pii('trig@example.test', 9901);
    const theirs = pii('other-trig@example.test', 9902);
    for (const order of [mine, theirs]) await deliverAndProcess(shop, 'orders/create', order);
    const triggers = () =>
      harness().db('workflow_trigger_outbox').where({ account_id: shop.accountId }).whereLike('trigger', 'commerce.order.%');
    assert.ok(
      (await triggers()).some((t) => t.payload.customer_email === 'trig@example.test'),
      'the setup wrote the email',
    );

    const request = await requestPrivacy(shop, 'customers/redact', {
      customer: { id: 9901, email: 'trig@example.test' },
      orders_to_redact: [mine.id],
    });
    await fulfilled(request.id);

    const after = await triggers();
    assert.ok(after.every((t) => t.payload.customer_email !== 'trig@example.test'));
    const other = after.find((t) => t.payload.order_id === String(theirs.id));
    assert.equal(other.payload.customer_email, 'other-trig@example.test');
    const redacted = after.find((t) => t.payload.order_id === String(mine.id));
    assert.deepEqual(
      [redacted.payload.customer_email, redacted.payload.contact_id, redacted.payload.order_id],
      [null, null, String(mine.id)],
      'the trigger keeps the order and loses the customer and the link to their contact',
    );
    assert.ok(other.payload.contact_id, "another customer's trigger keeps its contact");
  });
});
