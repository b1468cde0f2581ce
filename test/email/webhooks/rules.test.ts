import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { classifyStatus, postWebhook } from '../../../src/webhookKit/deliver';
import { webhookUrlProblem } from '../../../src/webhookKit/endpointUrl';
import { blockedAddressKind } from '../../../src/clients/providers/privateAddress';
import { openWebhookSecret, sealWebhookSecret } from '../../../src/email/webhooks/secretBox';
import { newWebhookSecret, webhookSignature } from '../../../src/webhookKit/signing';

describe('email webhook rules', () => {
  it('signatures match the Standard Webhooks reference vector', () => {
    // The example of the Standard Webhooks specification (also Svix's documentation).
    const signature = webhookSignature(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    assert.equal(signature, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('a sealed secret opens only with the key it was sealed under', () => {
    const secret = newWebhookSecret();
    const sealed = sealWebhookSecret('a'.repeat(64), secret);
    assert.ok(!sealed.includes(secret.slice(6)));
    assert.equal(openWebhookSecret('a'.repeat(64), sealed), secret);
    assert.throws(() => openWebhookSecret('b'.repeat(64), sealed));
  });

  it('2xx delivers; 4xx other than 408 and 429 is final; 5xx, 408, 429 and 3xx are retried', () => {
    for (const status of [200, 201, 204, 299])
      assert.deepEqual([classifyStatus(status).delivered, classifyStatus(status).retryable], [true, false]);
    for (const status of [400, 401, 403, 404, 410, 422])
      assert.deepEqual([classifyStatus(status).delivered, classifyStatus(status).retryable], [false, false], String(status));
    for (const status of [408, 429, 500, 502, 503, 504, 301, 302])
      assert.deepEqual([classifyStatus(status).delivered, classifyStatus(status).retryable], [false, true], String(status));
  });

  it('endpoint URLs: https on public hosts; private, loopback and link-local addresses refused unless private hosts are allowed', () => {
    assert.equal(webhookUrlProblem('https://hooks.example.com/in?x=1', false), null);
    assert.equal(webhookUrlProblem('https://93.184.216.34/in', false), null);
    assert.equal(webhookUrlProblem('https://[2606:4700::1111]/in', false), null);
    for (const url of [
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://192.168.1.10/',
      'https://[fd00::1]/',
      'https://169.254.169.254/',
      'https://0.0.0.0/',
      'https://localhost/',
      'https://api.localhost/',
      'http://hooks.example.com/',
    ]) {
      assert.ok(webhookUrlProblem(url, false), url);
    }
    assert.equal(webhookUrlProblem('http://127.0.0.1:8080/in', true), null);
    assert.equal(webhookUrlProblem('http://[::1]:8080/in', true), null);
    assert.equal(webhookUrlProblem('https://10.0.0.5/in', true), null);
    assert.ok(webhookUrlProblem('http://10.0.0.5/in', true), 'http only for loopback');
  });

  it('a delivery to a host name that resolves to a private address is refused at connect time, for good', async function () {
    // A name the URL rule cannot judge: this machine's own host name, which resolves to a loopback address here.
    const host = hostname();
    const { address } = await lookup(host).catch(() => ({ address: '' }));
    if (blockedAddressKind(address) !== 'loopback') this.skip();
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      assert.equal(webhookUrlProblem(`https://${host}:${port}/in`, false), null);
      const result = await postWebhook(`https://${host}:${port}/in`, '{}', {}, { timeoutMs: 2_000, allowPrivateHosts: false });
      assert.deepEqual([result.delivered, result.retryable], [false, false], result.error ?? '');
      assert.match(result.error ?? '', /non-public/);
      assert.equal(hits, 0);
    } finally {
      server.close();
    }
  });
});
