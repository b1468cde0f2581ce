import assert from 'node:assert/strict';
import { call } from '../../helpers/http';

describe('the sending routes in /openapi.json', () => {
  it('documents send and batch with their scope, body, response, rate-limit headers and coded errors', async () => {
    const { body: doc } = await call('GET', '/openapi.json');
    const send = doc.paths['/v1/email/send'].post;
    const batch = doc.paths['/v1/email/batch'].post;
    assert.deepEqual(send.security, [{ emailKey: ['email:send'] }]);
    assert.deepEqual(batch.security, [{ emailKey: ['email:batch'] }]);

    const message = send.requestBody.content['application/json'].schema;
    for (const field of ['from', 'to', 'cc', 'bcc', 'reply_to', 'subject', 'html', 'text', 'headers', 'tags', 'template']) {
      assert.ok(message.properties[field], `body.${field} is documented`);
    }
    assert.equal(message.additionalProperties, false);
    const items = batch.requestBody.content['application/json'].schema.items;
    assert.ok(items.properties.from && items.properties.template, 'a batch element is documented as a message');

    const ok = send.responses['200'];
    assert.deepEqual(Object.keys(ok.content['application/json'].schema.properties).sort(), [
      'created_at',
      'from',
      'id',
      'messageId',
      'object',
      'status',
      'test',
      'to',
    ]);
    assert.ok(ok.headers['RateLimit-Remaining']);
    assert.match(send.description, /commit point/i);
    for (const [status, code] of [
      ['403', 'domain_not_verified'],
      ['403', 'domain_not_allowed'],
      ['429', 'rate_limit_exceeded'],
      ['502', 'smtp_rejected'],
      ['503', 'smtp_not_configured'],
    ]) {
      assert.match(send.responses[status].description, new RegExp(code), `${status} ${code}`);
    }
    assert.match(batch.responses['400'].description, /batch_too_large/);
    assert.ok(send.parameters.some((p: { name: string }) => p.name === 'Idempotency-Key'));
    assert.ok(batch.parameters.some((p: { name: string }) => p.name === 'Idempotency-Key'));
  });
});
