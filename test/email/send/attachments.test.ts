import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { simpleParser, type Attachment } from 'mailparser';
import { eventually } from '../../jobs/jobTestKit';
import { assertError, assertFieldError } from '../../marketing/grounding/fixtures';
import { emailKey, eventRows, message, messageRows, senderAccount, settledEmail, type SendWorld, useSendWorld } from './kit';

const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const MiB = 1024 * 1024;

/** A real (1×1) PNG and a few PDF bytes: the relay must hand back exactly these. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const byName = (list: Attachment[], name: string) => {
  const found = list.find((a) => a.filename === name);
  assert.ok(found, `${name} arrived (got ${list.map((a) => a.filename).join(', ')})`);
  return found;
};

describe('POST /v1/email/send: attachments', () => {
  let world: SendWorld;
  useSendWorld((w) => (world = w));

  let senders = 0;

  /**
   * A live key of a fresh account, its own recipient (deliveries of earlier tests may still reach the relay), and a
   * check that refused requests left nothing behind.
   */
  async function liveSender() {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const to = `attach-${++senders}@customer.test`;
    const send = (body: unknown, headers?: Record<string, string>) => world.app.call('POST', '/v1/email/send', { token, body, headers });
    const msg = (overrides: Record<string, unknown> = {}) => message({ to, ...overrides });
    const assertNothingChanged = async () => {
      assert.deepEqual(await messageRows(account.accountId), [], 'no email stored');
      assert.deepEqual(await eventRows(account.accountId), [], 'no event');
      assert.ok(!world.smtp.messages.some((m) => m.envelope.to.includes(to)), 'nothing relayed');
    };
    const received = () =>
      eventually(
        async () => world.smtp.messages.find((m) => m.envelope.to.includes(to)),
        (m) => m !== undefined,
        60_000,
        `the relay to receive the message to ${to}`,
      ).then((m) => m!);
    return { account, token, send, msg, assertNothingChanged, received };
  }

  it('an attachment and an inline image arrive at the relay intact: names, types, disposition, Content-ID and bytes', async () => {
    const { token, send, msg, received } = await liveSender();
    const res = await send(
      msg({
        html: '<p>Your invoice <img src="cid:logo@acme.example" alt="Acme"></p>',
        attachments: [
          { filename: 'invoice-42.pdf', content: b64(PDF) },
          { filename: 'logo.png', content: b64(PNG), content_id: 'logo@acme.example' },
          { filename: 'report.csv', content: b64('a,b\n1,2\n'), content_type: 'text/csv; charset=utf-8' },
        ],
      }),
    );
    assert.equal(res.status, 202, res.text);
    const mail = await simpleParser((await received()).raw, { keepCidLinks: true });
    assert.equal(mail.attachments.length, 3);

    const pdf = byName(mail.attachments, 'invoice-42.pdf');
    assert.equal(pdf.contentType, 'application/pdf', 'the type comes from the extension when not given');
    assert.equal(pdf.contentDisposition, 'attachment');
    assert.ok(pdf.content.equals(PDF));

    const logo = byName(mail.attachments, 'logo.png');
    assert.equal(logo.contentType, 'image/png');
    assert.equal(logo.contentDisposition, 'inline', 'a content_id makes the part inline');
    assert.equal(logo.cid, 'logo@acme.example');
    assert.ok(logo.content.equals(PNG));
    assert.match(mail.html || '', /src="cid:logo@acme\.example"/);

    const csv = byName(mail.attachments, 'report.csv');
    assert.equal(csv.contentType, 'text/csv');
    assert.equal(csv.content.toString(), 'a,b\n1,2\n');

    const settled = await settledEmail(world, token, res.body.id);
    assert.equal(settled.body.status, 'sent');
  });

  it('disposition overrides the default: an inline part without content_id, a content_id part as a download', async () => {
    const { send, msg, received } = await liveSender();
    const res = await send(
      msg({
        attachments: [
          { filename: 'chart.png', content: b64(PNG), disposition: 'inline' },
          { filename: 'photo.jpg', content: b64('jpeg bytes'), content_id: 'photo@acme.example', disposition: 'attachment' },
        ],
      }),
    );
    assert.equal(res.status, 202, res.text);
    const mail = await simpleParser((await received()).raw);
    const chart = byName(mail.attachments, 'chart.png');
    assert.equal(chart.contentDisposition, 'inline');
    assert.equal(chart.cid, undefined);
    const photo = byName(mail.attachments, 'photo.jpg');
    assert.equal(photo.contentDisposition, 'attachment');
    assert.equal(photo.contentType, 'image/jpeg');
  });

  it('attachments totalling exactly 10 MiB decoded are accepted and delivered byte for byte', async function () {
    this.timeout(120_000);
    const { token, send, msg, received } = await liveSender();
    const first = randomBytes(6 * MiB);
    const second = randomBytes(4 * MiB);
    const res = await send(
      msg({
        attachments: [
          { filename: 'first.bin', content: b64(first) },
          { filename: 'second.bin', content: b64(second) },
        ],
      }),
    );
    assert.equal(res.status, 202, res.text);
    const settled = await settledEmail(world, token, res.body.id, 90_000);
    assert.equal(settled.body.status, 'sent');
    const mail = await simpleParser((await received()).raw);
    assert.equal(sha(byName(mail.attachments, 'first.bin').content), sha(first));
    assert.equal(sha(byName(mail.attachments, 'second.bin').content), sha(second));
  });

  it('attachments over 10 MiB in total (decoded) are refused with 400 naming the one that crosses the limit, and nothing changes', async () => {
    const { send, msg, assertNothingChanged } = await liveSender();
    const res = await send(
      msg({
        attachments: [
          { filename: 'a.bin', content: b64(Buffer.alloc(5 * MiB, 1)) },
          { filename: 'b.bin', content: b64(Buffer.alloc(1024, 2)) },
          { filename: 'c.bin', content: b64(Buffer.alloc(5 * MiB, 3)) },
        ],
      }),
    );
    assertFieldError(res, 'body.attachments.2.content');
    assert.match(res.text, /10485760/);
    await assertNothingChanged();
  });

  it('at most 20 attachments per message', async () => {
    const { send, msg, assertNothingChanged } = await liveSender();
    const files = (n: number) => Array.from({ length: n }, (_, i) => ({ filename: `f${i}.txt`, content: b64(`file ${i}`) }));
    assertFieldError(await send(msg({ attachments: files(21) })), 'body.attachments');
    await assertNothingChanged();
    assert.equal((await send(msg({ attachments: files(20) }))).status, 202);
  });

  it('a request body over the send route limit (16 MiB) answers 413 payload_too_large', async function () {
    this.timeout(60_000);
    const { send, msg, assertNothingChanged } = await liveSender();
    const res = await send(msg({ attachments: [{ filename: 'big.bin', content: 'A'.repeat(16 * MiB) }] }));
    assertError(res, 413, 'payload_too_large');
    await assertNothingChanged();
  });

  it('content must be strict base64: no line breaks, no base64url, padded, canonical, not empty', async () => {
    const { send, msg, assertNothingChanged } = await liveSender();
    for (const content of ['not base64!', 'aGVsbG8', 'aGVs\nbG8=', 'aGVs bG8=', 'aGVsbG8_', '-_-_', 'aGVsbG9=', '', 42]) {
      assertFieldError(await send(msg({ attachments: [{ filename: 'a.txt', content }] })), 'body.attachments.0.content');
    }
    await assertNothingChanged();
  });

  it('filename is required, 1 to 255 characters, without path separators or control characters', async () => {
    const { send, msg, assertNothingChanged } = await liveSender();
    for (const filename of [
      '../etc/passwd',
      'dir/a.pdf',
      'C:\\a.pdf',
      'bad\r\nBcc: x.pdf',
      'tab\there.pdf',
      'nul\u0000.pdf',
      '',
      '..',
      'x'.repeat(256),
      7,
    ]) {
      assertFieldError(await send(msg({ attachments: [{ filename, content: b64('x') }] })), 'body.attachments.0.filename');
    }
    assertFieldError(await send(msg({ attachments: [{ content: b64('x') }] })), 'body.attachments.0.filename');
    await assertNothingChanged();
    assert.equal((await send(msg({ attachments: [{ filename: 'Rechnung März 2026.pdf', content: b64('x') }] }))).status, 202);
  });

  it('executable and installer types are refused whatever the case (.exe, .bat, .js, …), even behind a trailing dot', async () => {
    const { send, msg, assertNothingChanged } = await liveSender();
    for (const filename of [
      'setup.exe',
      'RUN.BAT',
      'script.js',
      'invoice.pdf.exe',
      'tool.msi',
      'run.ps1',
      'app.jar',
      'trick.exe.',
      'x.scr ',
    ]) {
      const res = await send(msg({ attachments: [{ filename, content: b64('MZ') }] }));
      assertFieldError(res, 'body.attachments.0.filename');
      assert.match(res.text, /refused/);
    }
    await assertNothingChanged();
    const fine = ['data.json', 'archive.zip', 'exe', 'notes.js.txt'].map((filename) => ({ filename, content: b64('ok') }));
    assert.equal((await send(msg({ attachments: fine }))).status, 202);
  });

  it('content_type must be a MIME type (no line breaks, not multipart)', async () => {
    const { send, msg, assertNothingChanged } = await liveSender();
    for (const content_type of [
      'pdf',
      'application/',
      '/pdf',
      'text/plain\r\nBcc: x@y.test',
      'multipart/mixed',
      'text/plain; charset',
      'a b/c',
    ]) {
      assertFieldError(
        await send(msg({ attachments: [{ filename: 'a.txt', content: b64('x'), content_type }] })),
        'body.attachments.0.content_type',
      );
    }
    await assertNothingChanged();
  });

  it('content_id must be an RFC 2392 id (left@right, no brackets or cid: prefix), unique within the message', async () => {
    const { send, msg, assertNothingChanged } = await liveSender();
    for (const content_id of [
      '<logo@acme.example>',
      'cid:logo@acme.example',
      'logo',
      'lo go@acme.example',
      'logo@',
      '@acme',
      'a@b\r\nX: y',
    ]) {
      assertFieldError(
        await send(msg({ attachments: [{ filename: 'a.png', content: b64('x'), content_id }] })),
        'body.attachments.0.content_id',
      );
    }
    const twice = [
      { filename: 'a.png', content: b64('a'), content_id: 'logo@acme.example' },
      { filename: 'b.png', content: b64('b'), content_id: 'logo@acme.example' },
    ];
    assertFieldError(await send(msg({ attachments: twice })), 'body.attachments.1.content_id');
    assertFieldError(
      await send(msg({ attachments: [{ filename: 'a.png', content: b64('a'), disposition: 'hidden' }] })),
      'body.attachments.0.disposition',
    );
    assertFieldError(
      await send(msg({ attachments: [{ filename: 'a.png', content: b64('a'), path: '/etc/passwd' }] })),
      'body.attachments.0',
    );
    await assertNothingChanged();
  });

  it('a batch message carries its attachments to the relay; a bad one is refused on its own, the error naming its index', async () => {
    const { token, msg, received } = await liveSender();
    const res = await world.app.call('POST', '/v1/email/batch', {
      token,
      body: [
        msg({ attachments: [{ filename: 'invoice.pdf', content: b64(PDF) }] }),
        msg({ attachments: [{ filename: 'setup.exe', content: b64('MZ') }] }),
      ],
    });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.data[0].status, 'queued');
    assert.equal(res.body.data[1].error.code, 'validation_failed');
    assert.deepEqual(
      res.body.data[1].error.errors.map((e: { path: string }) => e.path),
      ['body.1.attachments.0.filename'],
    );
    const mail = await simpleParser((await received()).raw);
    assert.ok(byName(mail.attachments, 'invoice.pdf').content.equals(PDF));
  });

  it('a scheduled send keeps its attachments until its time and delivers them intact', async () => {
    const { token, send, msg, received } = await liveSender();
    const scheduledAt = new Date(Date.now() + 3_000).toISOString();
    const res = await send(
      msg({ scheduled_at: scheduledAt, attachments: [{ filename: 'logo.png', content: b64(PNG), content_id: 'logo@acme.example' }] }),
    );
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.status, 'scheduled');
    const mail = await simpleParser((await received()).raw);
    const logo = byName(mail.attachments, 'logo.png');
    assert.equal(logo.cid, 'logo@acme.example');
    assert.ok(logo.content.equals(PNG));
    await settledEmail(world, token, res.body.id);
  });

  it('a test key answers a send with attachments the same way (200 simulated), refuses the same bad ones, and sends nothing', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const send = (body: unknown) =>
      world.app.call('POST', '/v1/email/send', { token, body: { ...(body as object), to: 'test-key@customer.test' } });
    const ok = await send(message({ attachments: [{ filename: 'invoice.pdf', content: b64(PDF) }] }));
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.status, 'simulated');
    assertFieldError(
      await send(message({ attachments: [{ filename: 'invoice.pdf', content: 'not base64' }] })),
      'body.attachments.0.content',
    );
    assertFieldError(await send(message({ attachments: [{ filename: 'setup.exe', content: b64('MZ') }] })), 'body.attachments.0.filename');
    assert.ok(!world.smtp.messages.some((m) => m.envelope.to.includes('test-key@customer.test')), 'nothing relayed');
    assert.deepEqual(await messageRows(account.accountId), []);
  });

  it('an Idempotency-Key replays a send with a 5 MiB attachment at once: one email, one delivery', async function () {
    this.timeout(60_000);
    const { account, send, msg, received } = await liveSender();
    const body = msg({ attachments: [{ filename: 'scan.pdf', content: b64(randomBytes(5 * MiB)) }] });
    const started = Date.now();
    const first = await send(body, { 'Idempotency-Key': 'attach-1' });
    const again = await send(body, { 'Idempotency-Key': 'attach-1' });
    assert.ok(Date.now() - started < 10_000, `two requests took ${Date.now() - started} ms`);
    assert.equal(first.status, 202, first.text);
    assert.equal(again.body.id, first.body.id);
    assert.equal((await messageRows(account.accountId)).length, 1);
    await received();
  });
});
