import assert from 'node:assert/strict';
import { forgetAccountDomains } from '../../../src/email/domains/service';
import { harness } from '../../helpers/harness';
import { message, settledEmail, type SendWorld, useSendWorld } from '../send/kit';
import { PIXEL_GIF } from '../../../src/email/tracking/pixel';
import { anchorHrefs, copyFor, hit, imageSources, pixelOf, PUBLIC_URL, trackedLink, trackingAccount, trackingEvents } from './kit';

const HTML =
  '<!doctype html><html><head><title>Offer</title></head><body>' +
  '<p>Hi, see <a href="https://acme.example/offer?a=1&amp;b=2">the offer</a> or ' +
  '<A HREF=http://acme.example/plain>this</A>, write to <a href="mailto:help@acme.example">us</a>, ' +
  '<a href="https://acme.example/private" data-wy-no-track>your account</a>, ' +
  '<a href="https://acme.example/offer?a=1&amp;b=2">the offer again</a>, ' +
  '<a href="/relative">a relative link</a> or <a href="https://acme.example/unsubscribe">unsubscribe</a>.</p>' +
  '</body></html>';
const TEXT = 'Hi, see the offer at https://acme.example/offer?a=1&b=2';
const SENDER_UNSUBSCRIBE = 'https://acme.example/unsubscribe';

describe('open and click tracking at delivery', () => {
  let world: SendWorld;
  useSendWorld((w) => (world = w), { config: { PUBLIC_APP_URL: PUBLIC_URL } });

  /** A live send from a domain with `settings`, delivered; the copy each recipient received. */
  async function send(settings: Record<string, unknown>, recipients: string[], extra: Record<string, unknown> = {}) {
    const { account, token } = await trackingAccount(world, settings);
    const res = await world.app.call('POST', '/v1/email/send', {
      token,
      body: message({ to: recipients, html: HTML, text: TEXT, ...extra }),
    });
    assert.equal(res.status, 202, res.text);
    await settledEmail(world, token, res.body.id);
    const received = world.smtp.messages;
    return { account, token, emailId: res.body.id as string, received, copy: (r: string) => copyFor(received, r) };
  }

  it('tracking is off by default: the relay gets the html as sent, one copy for all recipients', async () => {
    const { received } = await send({}, ['ann@customer.test', 'bob@customer.test']);
    assert.equal(received.length, 1, 'nothing differs per recipient');
    assert.equal(received[0].parsed.html?.trim(), HTML);
    assert.deepEqual(imageSources(received[0].parsed.html ?? ''), []);
  });

  it('open tracking adds one pixel per recipient, each with its own token, before the end of the body', async () => {
    const { copy } = await send({ open_tracking: true }, ['ann@customer.test', 'bob@customer.test']);
    const [ann, bob] = [copy('ann@customer.test'), copy('bob@customer.test')];
    const [annPixel, bobPixel] = [pixelOf(ann), pixelOf(bob)];
    assert.notEqual(annPixel.token, bobPixel.token);
    assert.equal(annPixel.host, 'api.workyard.test', 'on PUBLIC_APP_URL');
    assert.match(ann.parsed.html ?? '', /<img src="[^"]+" width="1" height="1" alt="" [^>]*\/><\/body><\/html>\s*$/);
    assert.ok(!(ann.parsed.html ?? '').includes('ann@customer.test'), "the address is not in the copy's URLs");
    assert.deepEqual(anchorHrefs(ann.parsed.html ?? '').map(trackedLink), Array(7).fill(null), 'links stay as written');
  });

  it('the text part is left alone', async () => {
    const { copy } = await send({ open_tracking: true, click_tracking: true }, ['ann@customer.test']);
    assert.equal(copy('ann@customer.test').parsed.text?.trim(), TEXT);
  });

  it('loading the pixel answers a 43-byte GIF and emits email.opened once, for that recipient only; later opens count', async () => {
    const { account, token, emailId, copy } = await send({ open_tracking: true }, ['ann@customer.test', 'bob@customer.test']);
    const { path } = pixelOf(copy('ann@customer.test'));

    const first = await hit(world, path, { userAgent: 'Mail/1.0' });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('content-type'), 'image/gif');
    assert.match(first.headers.get('cache-control') ?? '', /no-store/);
    assert.equal(first.body.length, 43);
    assert.deepEqual(first.body, PIXEL_GIF);
    assert.equal((await hit(world, path)).status, 200);

    const [event, ...more] = await trackingEvents(account.accountId, 'email.opened');
    assert.deepEqual(more, [], 'one email.opened');
    assert.equal(event.data.recipient, 'ann@customer.test');
    assert.equal(event.data.email_id, emailId);
    assert.equal(event.data.subject, 'Hello');
    assert.equal(event.data.user_agent, 'Mail/1.0');
    assert.ok(!Number.isNaN(Date.parse(event.data.opened_at)));

    const engagement = await world.app.call('GET', `/v1/email/emails/${emailId}/engagement`, { token });
    assert.equal(engagement.status, 200, engagement.text);
    assert.deepEqual(
      engagement.body.opens.map((o: { recipient: string; count: number }) => [o.recipient, o.count]),
      [['ann@customer.test', 2]],
    );
    const email = await world.app.call('GET', `/v1/email/emails/${emailId}`, { token });
    assert.equal(email.body.status, 'sent', 'an open changes no delivery state');
    assert.ok(email.body.recipients.every((r: { state: string }) => r.state === 'sent'));
  });

  it('a HEAD of the pixel or a link counts nothing', async () => {
    const { account, emailId, token, copy } = await send({ open_tracking: true, click_tracking: true }, ['ann@customer.test']);
    const ann = copy('ann@customer.test');
    assert.equal((await hit(world, pixelOf(ann).path, { method: 'HEAD' })).status, 200);
    const link = trackedLink(anchorHrefs(ann.parsed.html ?? '')[0])!;
    assert.equal((await hit(world, link.path, { method: 'HEAD' })).status, 302);
    assert.deepEqual(await trackingEvents(account.accountId, 'email.opened'), []);
    assert.deepEqual(await trackingEvents(account.accountId, 'email.clicked'), []);
    const engagement = await world.app.call('GET', `/v1/email/emails/${emailId}/engagement`, { token });
    assert.deepEqual(engagement.body, { object: 'engagement', email_id: emailId, opens: [], clicks: [] });
  });

  it('click tracking rewrites http(s) links per recipient, but not mailto:, the List-Unsubscribe link, marked or relative links', async () => {
    const { copy } = await send({ click_tracking: true }, ['ann@customer.test', 'bob@customer.test'], {
      unsubscribe: { url: SENDER_UNSUBSCRIBE },
    });
    const ann = anchorHrefs(copy('ann@customer.test').parsed.html ?? '');
    const bob = anchorHrefs(copy('bob@customer.test').parsed.html ?? '');
    const [offer, plain, mailto, marked, again, relative, unsubscribe] = ann;
    assert.ok(trackedLink(offer) && trackedLink(plain) && trackedLink(again), ann.join(' '));
    assert.equal(trackedLink(offer)!.host, 'api.workyard.test');
    assert.deepEqual(
      [mailto, marked, relative, unsubscribe],
      ['mailto:help@acme.example', 'https://acme.example/private', '/relative', SENDER_UNSUBSCRIBE],
    );
    assert.notEqual(trackedLink(offer)!.token, trackedLink(bob[0])!.token, 'each recipient has their own links');
    assert.notEqual(trackedLink(offer)!.token, trackedLink(plain)!.token);
    assert.deepEqual(imageSources(copy('ann@customer.test').parsed.html ?? ''), [], 'no pixel without open tracking');
    assert.equal(copy('ann@customer.test').parsed.header('list-unsubscribe'), `<${SENDER_UNSUBSCRIBE}>`);
  });

  it('with unsubscribe on as well, each copy keeps its own List-Unsubscribe link beside its tracked html', async () => {
    const { copy } = await send({ open_tracking: true, click_tracking: true }, ['ann@customer.test', 'bob@customer.test'], {
      unsubscribe: true,
    });
    const [ann, bob] = [copy('ann@customer.test'), copy('bob@customer.test')];
    assert.match(ann.parsed.header('list-unsubscribe') ?? '', /^<https:\/\/api\.workyard\.test\/v1\/email\/unsubscribe\/[\w-]+>$/);
    assert.notEqual(ann.parsed.header('list-unsubscribe'), bob.parsed.header('list-unsubscribe'));
    assert.ok(pixelOf(ann) && trackedLink(anchorHrefs(ann.parsed.html ?? '')[0]));
  });

  it('a click redirects to the original URL and emits email.clicked with the link, once per recipient and link', async () => {
    const { account, token, emailId, copy } = await send({ click_tracking: true }, ['ann@customer.test', 'bob@customer.test']);
    const [offer, plain, , , again] = anchorHrefs(copy('ann@customer.test').parsed.html ?? '').map(trackedLink);

    const res = await hit(world, offer!.path, { userAgent: 'Browser/2.0' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), 'https://acme.example/offer?a=1&b=2');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal((await hit(world, again!.path)).headers.get('location'), 'https://acme.example/offer?a=1&b=2');
    assert.equal((await hit(world, plain!.path)).headers.get('location'), 'http://acme.example/plain');

    const events = await trackingEvents(account.accountId, 'email.clicked');
    assert.deepEqual(
      events.map((e) => [e.data.recipient, e.data.link]),
      [
        ['ann@customer.test', 'https://acme.example/offer?a=1&b=2'],
        ['ann@customer.test', 'http://acme.example/plain'],
      ],
      'the same link twice is one event',
    );
    assert.equal(events[0].data.email_id, emailId);
    assert.equal(events[0].data.user_agent, 'Browser/2.0');
    assert.ok(!Number.isNaN(Date.parse(events[0].data.clicked_at)));

    const engagement = await world.app.call('GET', `/v1/email/emails/${emailId}/engagement`, { token });
    assert.deepEqual(
      engagement.body.clicks.map((c: { recipient: string; url: string; count: number }) => [c.recipient, c.url, c.count]),
      [
        ['ann@customer.test', 'https://acme.example/offer?a=1&b=2', 2],
        ['ann@customer.test', 'http://acme.example/plain', 1],
      ],
    );
  });

  it('an altered or forged click token is 404 and changes nothing; an altered pixel token still answers the GIF and records nothing', async () => {
    const { account, copy } = await send({ open_tracking: true, click_tracking: true }, ['ann@customer.test', 'bob@customer.test']);
    const ann = copy('ann@customer.test');
    const link = trackedLink(anchorHrefs(ann.parsed.html ?? '')[0])!;
    const pixel = pixelOf(ann);
    const bobLink = trackedLink(anchorHrefs(copy('bob@customer.test').parsed.html ?? '')[0])!;

    const flip = (token: string, at: number) => `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    const bytes = Buffer.from(link.token, 'base64url');
    // Bob's recipient tag under Ann's MAC: a recipient swapped in the token.
    const swapped = Buffer.concat([bytes.subarray(0, 34), Buffer.from(bobLink.token, 'base64url').subarray(34, 42), bytes.subarray(42)]);
    const otherLink = Buffer.from(bytes);
    otherLink.writeUInt16BE(7, 42);
    const forged = [
      flip(link.token, 10),
      flip(link.token, 50),
      swapped.toString('base64url'),
      otherLink.toString('base64url'),
      link.token.slice(0, -2),
      `${link.token}AA`,
      'abc',
      'x'.repeat(200),
      pixel.token,
    ];
    const messages = new Set<string>();
    for (const bad of forged) {
      const res = await world.app.call('GET', `/v1/email/t/c/${encodeURIComponent(bad)}`);
      assert.equal(res.status, 404, `${bad}: ${res.text}`);
      assert.equal(res.body.code, 'tracked_link_not_found');
      messages.add(res.body.message);
    }
    assert.equal(messages.size, 1, 'every refusal reads the same');

    for (const bad of [flip(pixel.token, 20), flip(pixel.token, 60), link.token, 'abc']) {
      const res = await hit(world, `/v1/email/t/o/${bad}.gif`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, PIXEL_GIF);
    }
    assert.deepEqual(await trackingEvents(account.accountId, 'email.clicked'), []);
    assert.deepEqual(await trackingEvents(account.accountId, 'email.opened'), []);
    assert.deepEqual(await harness().db('email_tracking_opens').where({ account_id: account.accountId }), []);
    assert.deepEqual(await harness().db('email_tracking_clicks').where({ account_id: account.accountId }), []);
  });

  it('links use the tracking host once its CNAME verified, and the service URL before', async () => {
    const { account, domainId, token } = await trackingAccount(world, { open_tracking: true, click_tracking: true });
    const patched = await world.app.call('PATCH', `/v1/email/domains/${domainId}`, {
      token,
      body: { tracking_host: 'track.mail.example.test' },
    });
    assert.equal(patched.status, 200, patched.text);
    const sendOne = async (to: string) => {
      world.smtp.reset();
      const res = await world.app.call('POST', '/v1/email/send', { token, body: message({ to, html: HTML }) });
      assert.equal(res.status, 202, res.text);
      await settledEmail(world, token, res.body.id);
      return copyFor(world.smtp.messages, to);
    };
    const before = await sendOne('ann@customer.test');
    assert.equal(pixelOf(before).host, 'api.workyard.test', 'not yet verified');

    // The DNS check itself is the settings tests' subject: record its outcome as a verify would.
    await harness().db('email_domain_checks').insert({
      domain_id: domainId,
      account_id: account.accountId,
      record: 'tracking_cname',
      target: 'api.workyard.test',
      status: 'verified',
      verified_at: new Date(),
      last_checked_at: new Date(),
    });
    forgetAccountDomains(account.accountId);

    const after = await sendOne('bob@customer.test');
    const pixel = pixelOf(after);
    assert.equal(pixel.host, 'track.mail.example.test');
    const link = trackedLink(anchorHrefs(after.parsed.html ?? '')[0])!;
    assert.equal(link.host, 'track.mail.example.test');
    // The same server answers on that name (the CNAME brings the request here).
    assert.equal((await hit(world, link.path)).headers.get('location'), 'https://acme.example/offer?a=1&b=2');
  });
});
