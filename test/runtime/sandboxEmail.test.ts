import assert from 'node:assert/strict';
import { eventually } from '../jobs/jobTestKit';
import { tempDir } from './child';
import { API_LINE, call, OWNER_TOKEN, sandboxRuns } from './sandboxKit';

const PUBLISH_STEP = /curl -s \S+\/v1\/email\/domains\/<id> .*\| curl -X POST (http:\/\/\S+\/publish) --data-binary @-/;

describe('start --sandbox: email', function () {
  this.timeout(180_000);
  const sandbox = sandboxRuns();

  it("the banner's steps take a new sender domain to verified DKIM, and a live send from it is delivered through the sandbox relay, its outcome read back", async () => {
    const stack = sandbox.start(sandbox.env(await tempDir('wy-sandbox-email-')));
    const [, apiUrl] = await stack.waitFor(API_LINE, 120_000);
    await stack.waitFor(/Press Ctrl-C to stop/, 10_000);
    const owner = stack.stdout.match(OWNER_TOKEN)?.[1] ?? assert.fail('no owner token in the banner');
    const publishUrl = stack.stdout.match(PUBLISH_STEP)?.[1] ?? assert.fail(`no publish step in the banner:\n${stack.stdout}`);

    const key = await call('POST', `${apiUrl}/api/email/keys`, owner, {
      name: 'sandbox sender',
      environment: 'live',
      scopes: ['email:send', 'email:domains'],
    });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    const emailKey = key.body.secret as string;

    const added = await call('POST', `${apiUrl}/v1/email/domains`, emailKey, { name: 'mail.sandbox-demo.test' });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    // The banner's pipe: the domain as the API answers it, posted to the DNS console.
    const domain = await fetch(`${apiUrl}/v1/email/domains/${added.body.id}`, { headers: { authorization: `Bearer ${emailKey}` } });
    const published = await fetch(publishUrl, { method: 'POST', body: await domain.text() });
    assert.equal(published.status, 200, await published.text());
    const verified = await call('POST', `${apiUrl}/v1/email/domains/${added.body.id}/verify`, emailKey);
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.equal(verified.body.dkim_status, 'verified', JSON.stringify(verified.body));
    assert.deepEqual(verified.body.sending, { test: true, live: true });

    const sent = await call('POST', `${apiUrl}/v1/email/send`, emailKey, {
      from: 'Sandbox <hello@mail.sandbox-demo.test>',
      to: 'delivered@customer.test',
      subject: 'Hello from the sandbox',
      text: 'Signed and delivered.',
    });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    const read = await eventually(
      () => call('GET', `${apiUrl}/v1/email/emails/${sent.body.id}`, emailKey),
      (r) => r.body.recipients?.[0]?.state === 'delivered',
      60_000,
      'the sandbox relay to report the message delivered',
    );
    assert.equal(read.body.status, 'sent');
    assert.equal(read.body.state, 'delivered');
  });
});
