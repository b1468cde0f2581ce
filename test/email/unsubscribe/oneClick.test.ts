import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { unsubscribeToken } from '../../../src/email/unsubscribe/token';
import { harness } from '../../helpers/harness';
import { emailKey, message, senderAccount, settledEmail, type SendWorld, useSendWorld } from '../send/kit';
import { copyFor, linkOf, ONE_CLICK_BODY, PUBLIC_URL, suppressionRows, unsubscribedEvents } from './kit';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('one-click unsubscribe links (RFC 8058)', () => {
  let world: SendWorld;
  useSendWorld((w) => (world = w), { config: { PUBLIC_APP_URL: PUBLIC_URL } });

  /** A live send with `unsubscribe: true` to `recipients`, delivered; each recipient's link. */
  async function sendWithLinks(recipients: string[]) {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const res = await world.app.call('POST', '/v1/email/send', { token, body: message({ to: recipients, unsubscribe: true }) });
    assert.equal(res.status, 202, res.text);
    const received = await world.smtp.waitForMessages(recipients.length);
    await settledEmail(world, token, res.body.id);
    const links = Object.fromEntries(recipients.map((r) => [r, linkOf(copyFor(received, r))]));
    return { account, token, emailId: res.body.id as string, links };
  }

  const post = (path: string, headers: Record<string, string> = FORM) => world.app.call('POST', path, { rawBody: ONE_CLICK_BODY, headers });

  it("each recipient's copy carries its own List-Unsubscribe link and List-Unsubscribe-Post: two recipients, two tokens", async () => {
    const { links } = await sendWithLinks(['ann@customer.test', 'bob@customer.test']);
    const [ann, bob] = [links['ann@customer.test'], links['bob@customer.test']];
    assert.notEqual(ann.token, bob.token);
    assert.ok(ann.url.startsWith(`${PUBLIC_URL}/v1/email/unsubscribe/`), 'the link is on PUBLIC_APP_URL');
  });

  it('a POST to one link suppresses only that recipient (reason unsubscribe) and emits email.unsubscribed', async () => {
    const { account, emailId, links } = await sendWithLinks(['ann@customer.test', 'bob@customer.test']);
    const res = await post(links['ann@customer.test'].path);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { object: 'unsubscribe', unsubscribed: true });

    assert.deepEqual(await suppressionRows(account.accountId), [
      { email: 'ann@customer.test', reason: 'unsubscribe', message_id: emailId },
    ]);
    const [event, ...more] = await unsubscribedEvents(account.accountId);
    assert.deepEqual(more, []);
    assert.equal(event.data.recipient, 'ann@customer.test');
    assert.equal(event.data.email_id, emailId);
    assert.equal(event.data.from, 'support@mail.example.test');
    assert.equal(event.data.subject, 'Hello');
    assert.ok(!Number.isNaN(Date.parse(event.data.unsubscribed_at)));
  });

  it('repeating the POST answers 200 and changes nothing more', async () => {
    const { account, links } = await sendWithLinks(['ann@customer.test']);
    const { path } = links['ann@customer.test'];
    assert.equal((await post(path)).status, 200);
    const again = await post(path);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, { object: 'unsubscribe', unsubscribed: true });
    assert.equal((await suppressionRows(account.accountId)).length, 1);
    assert.equal((await unsubscribedEvents(account.accountId)).length, 1);
  });

  it('the suppression list shows the unsubscribed address with reason unsubscribe', async () => {
    const { account, token, links } = await sendWithLinks(['ann@customer.test']);
    await post(links['ann@customer.test'].path);
    const res = await world.app.call('GET', '/v1/email/suppressions', { token });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data[0].email, 'ann@customer.test');
    assert.equal(res.body.data[0].reason, 'unsubscribe');
    assert.equal((await suppressionRows(account.accountId)).length, 1);
  });

  it('a forged or altered link answers 404 without saying why, and changes nothing', async () => {
    const { account, emailId, links } = await sendWithLinks(['ann@customer.test']);
    const { token } = links['ann@customer.test'];
    const bytes = Buffer.from(token, 'base64url');
    const mac = bytes.subarray(bytes.length - 16);
    const head = bytes.subarray(0, 33);
    const otherRecipient = Buffer.concat([head, Buffer.from('eve@customer.test'), mac]).toString('base64url');
    const flipped = `${token.slice(0, 40)}${token[40] === 'A' ? 'B' : 'A'}${token.slice(41)}`;
    const otherSecret = unsubscribeToken(randomBytes(32).toString('hex'), {
      accountId: account.accountId,
      emailId,
      recipient: 'ann@customer.test',
    });
    const forged = [otherRecipient, flipped, otherSecret, token.slice(0, -2), `${token}AA`, 'abc', 'x'.repeat(600), `${token}=`];
    const messages = new Set<string>();
    for (const bad of forged) {
      const res = await post(`/v1/email/unsubscribe/${encodeURIComponent(bad)}`);
      assert.equal(res.status, 404, `${bad}: ${res.text}`);
      assert.equal(res.body.code, 'unsubscribe_link_not_found');
      messages.add(res.body.message);
      assert.equal((await world.app.call('GET', `/v1/email/unsubscribe/${encodeURIComponent(bad)}`)).status, 404);
    }
    assert.equal(messages.size, 1, 'every refusal reads the same');
    assert.deepEqual(await suppressionRows(account.accountId), []);
    assert.deepEqual(await unsubscribedEvents(account.accountId), []);
  });

  it('a link of another account or email suppresses only what it names', async () => {
    const first = await sendWithLinks(['ann@customer.test']);
    world.smtp.reset();
    const second = await sendWithLinks(['ann@customer.test']);
    assert.notEqual(first.links['ann@customer.test'].token, second.links['ann@customer.test'].token);
    await post(second.links['ann@customer.test'].path);
    assert.deepEqual(await suppressionRows(first.account.accountId), [], "the other account's list is untouched");
    assert.equal((await suppressionRows(second.account.accountId)).length, 1);
  });

  it('GET shows a confirmation page whose button posts the one-click form, and does not unsubscribe', async () => {
    const { account, links } = await sendWithLinks(['ann@customer.test']);
    const { path } = links['ann@customer.test'];
    const page = await world.app.call('GET', path, { headers: { accept: 'text/html' } });
    assert.equal(page.status, 200, page.text);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.text, /<form method="post">/);
    assert.match(page.text, /name="List-Unsubscribe" value="One-Click"/);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer', 'the token never leaves in a Referer');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.ok(!page.text.includes('ann@customer.test'), 'the page does not show the address');
    assert.equal((await world.app.call('HEAD', path)).status, 200);
    assert.deepEqual(await suppressionRows(account.accountId), [], 'opening the link changes nothing');
    assert.deepEqual(await unsubscribedEvents(account.accountId), []);

    // The button: a browser posts the form and reads the answer as a page.
    const done = await post(path, { ...FORM, accept: 'text/html,application/xhtml+xml' });
    assert.equal(done.status, 200, done.text);
    assert.match(done.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(done.text, /unsubscribed/i);
    assert.equal((await suppressionRows(account.accountId)).length, 1);
  });

  it('a bad link opened in a browser shows a 404 page', async () => {
    const res = await world.app.call('GET', '/v1/email/unsubscribe/not-a-token', { headers: { accept: 'text/html' } });
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const posted = await post('/v1/email/unsubscribe/not-a-token', { ...FORM, accept: 'text/html' });
    assert.equal(posted.status, 404);
    assert.match(posted.text, /not valid/);
  });

  it('the POST takes any form encoding mailbox providers use, and refuses a body over 4 KiB (413)', async () => {
    const { account, links } = await sendWithLinks(['ann@customer.test', 'bob@customer.test']);
    const boundary = 'x-boundary';
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const res = await world.app.call('POST', links['ann@customer.test'].path, {
      rawBody: multipart,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    assert.equal(res.status, 200, res.text);
    const big = await world.app.call('POST', links['bob@customer.test'].path, { rawBody: 'x'.repeat(5000), headers: FORM });
    assert.equal(big.status, 413, big.text);
    assert.equal(big.body.code, 'payload_too_large');
    assert.deepEqual(
      (await suppressionRows(account.accountId)).map((r) => r.email),
      ['ann@customer.test'],
    );
  });

  it('a later send to the unsubscribed address skips it (state skipped, reason unsubscribe); alone it is refused', async () => {
    const { account, token, links } = await sendWithLinks(['ann@customer.test', 'bob@customer.test']);
    await post(links['ann@customer.test'].path);
    world.smtp.reset();

    const res = await world.app.call('POST', '/v1/email/send', {
      token,
      body: message({ to: ['Ann@Customer.test', 'carol@customer.test'] }),
    });
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(res.body.recipients, [
      { email: 'ann@customer.test', type: 'to', state: 'skipped', reason: 'unsubscribe' },
      { email: 'carol@customer.test', type: 'to', state: 'queued' },
    ]);
    const settled = await settledEmail(world, token, res.body.id);
    const ann = settled.body.recipients.find((r: { email: string }) => r.email === 'ann@customer.test');
    assert.equal(ann.state, 'skipped');
    assert.equal(ann.reason, 'unsubscribe');
    assert.deepEqual(
      world.smtp.messages.map((m) => m.envelope.to),
      [['carol@customer.test']],
    );

    const alone = await world.app.call('POST', '/v1/email/send', { token, body: message({ to: 'ann@customer.test' }) });
    assert.equal(alone.status, 422, alone.text);
    assert.equal(alone.body.code, 'recipient_suppressed');
    assert.deepEqual(alone.body.recipients, [{ email: 'ann@customer.test', reason: 'unsubscribe' }]);
    const suppressed = await harness().db('email_events').where({ account_id: account.accountId, type: 'email.suppressed' });
    assert.ok(suppressed.every((e) => e.data.reason === 'unsubscribe') && suppressed.length === 2);
  });
});
