import assert from 'node:assert/strict';
import { assertError } from '../../marketing/grounding/fixtures';
import { emailKey, message, messageRows, senderAccount, startSendWorld, type SendWorld } from '../send/kit';
import { inSeconds } from './kit';

describe('scheduled_at is validated before anything is stored', () => {
  let world: SendWorld;
  before(async () => {
    world = await startSendWorld();
  });
  after(async () => {
    await world.close();
  });

  const fieldError = (res: { body: { errors?: Array<{ path: string; message: string }> } }, path: string) =>
    res.body.errors?.find((e) => e.path === path);

  for (const [name, value, pattern] of [
    ['a time in the past', inSeconds(-60), /future/],
    ['more than 30 days ahead', inSeconds(31 * 86_400), /30 days/],
    ['a time without an offset', inSeconds(3600).slice(0, 19), /offset/],
    ['a date without a time', '2026-12-01', /offset/],
    ['not a string', 1764316800, /offset/],
  ] as const) {
    it(`${name} is 400 validation_failed naming body.scheduled_at`, async () => {
      const account = await senderAccount();
      const { token } = await emailKey(account.accountId);
      const res = await world.app.call('POST', '/v1/email/send', { token, body: message({ scheduled_at: value }) });
      assertError(res, 400, 'validation_failed');
      const err = fieldError(res, 'body.scheduled_at');
      assert.ok(err, res.text);
      assert.match(err.message, pattern);
      assert.equal((await messageRows(account.accountId)).length, 0);
    });
  }

  it('a batch message with a bad scheduled_at gets its own error at body.<index>.scheduled_at; nothing else is stored for it', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const res = await world.app.call('POST', '/v1/email/batch', { token, body: [message(), message({ scheduled_at: inSeconds(-5) })] });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data[0].status, 'simulated');
    assert.equal(res.body.data[1].error.code, 'validation_failed');
    assert.equal(res.body.data[1].error.errors[0].path, 'body.1.scheduled_at');
  });

  it('PATCH /v1/email/emails/{id} validates scheduled_at the same way', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const res = await world.app.call('PATCH', '/v1/email/emails/00000000-0000-4000-8000-000000000000', {
      token,
      body: { scheduled_at: inSeconds(-1) },
    });
    assertError(res, 400, 'validation_failed');
    assert.ok(fieldError(res, 'body.scheduled_at'), res.text);
  });
});
