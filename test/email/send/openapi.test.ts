import assert from 'node:assert/strict';
import { dereferencedOpenApi } from '../../helpers/openapiDoc';

describe('the sending routes in /openapi.json', () => {
  it('documents send and batch with their scope, body, responses (200 simulated, 202 queued), rate-limit headers and coded errors', async () => {
    const doc = await dereferencedOpenApi();
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

    const emailProperties = ['created_at', 'from', 'id', 'messageId', 'object', 'recipients', 'status', 'test', 'to'];
    const ok = send.responses['200'];
    assert.deepEqual(Object.keys(ok.content['application/json'].schema.properties).sort(), emailProperties);
    assert.ok(ok.headers['RateLimit-Remaining']);
    const accepted = send.responses['202'];
    const [queued] = accepted.content['application/json'].schema.anyOf;
    assert.deepEqual(Object.keys(queued.properties).sort(), emailProperties);
    assert.ok(queued.properties.status.enum.includes('queued'));
    assert.ok(queued.properties.recipients.items.properties.state.enum.includes('skipped'));
    assert.ok(accepted.headers['RateLimit-Remaining']);
    assert.match(send.description, /commit point/i);
    assert.match(send.description, /email-delivery:<account>:<id>/);
    for (const [status, code] of [
      ['403', 'domain_not_verified'],
      ['403', 'domain_not_allowed'],
      ['422', 'recipient_suppressed'],
      ['429', 'rate_limit_exceeded'],
      ['503', 'smtp_not_configured'],
      ['503', 'temporal_unavailable'],
    ]) {
      assert.match(send.responses[status].description, new RegExp(code), `${status} ${code}`);
    }
    assert.equal(send.responses['502'], undefined, 'relay outcomes are the email status, never the answer');

    const [queuedBatch] = batch.responses['202'].content['application/json'].schema.anyOf;
    assert.deepEqual(Object.keys(queuedBatch.properties).sort(), ['data', 'id', 'job_id', 'object']);
    assert.match(batch.responses['400'].description, /batch_too_large/);
    assert.match(batch.responses['503'].description, /temporal_unavailable/);
    assert.equal(batch.responses['502'], undefined);
    assert.ok(send.parameters.some((p: { name: string }) => p.name === 'Idempotency-Key'));
    assert.ok(batch.parameters.some((p: { name: string }) => p.name === 'Idempotency-Key'));
  });
});
