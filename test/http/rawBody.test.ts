import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { route } from '../../src/http/route';
import { startPrivateApp, type PrivateApp } from '../helpers/privateApp';

// A webhook-style route: it needs the exact bytes the sender signed, not a re-serialised JSON value.
const echoDigest = route(
  {
    method: 'post',
    path: '/test/raw',
    operationId: 'testRaw',
    summary: 'digest of the raw body',
    tags: ['Test'],
    auth: { kind: 'none' },
    rawBody: true,
    responses: { 200: { description: 'digest', schema: z.object({ sha256: z.string(), length: z.int(), parsed: z.boolean() }) } },
  },
  async ({ rawBody, body }) => ({
    body: { sha256: createHash('sha256').update(rawBody).digest('hex'), length: rawBody.length, parsed: body !== undefined },
  }),
);

// An upload-style route whose own limit is above the app's BODY_LIMIT_BYTES.
const bigUpload = route(
  {
    method: 'post',
    path: '/test/upload',
    operationId: 'testUpload',
    summary: 'accepts up to 64 KiB',
    tags: ['Test'],
    auth: { kind: 'none' },
    rawBody: true,
    maxBodyBytes: 64 * 1024,
    responses: { 200: { description: 'length', schema: z.object({ length: z.int() }) } },
  },
  async ({ rawBody }) => ({ body: { length: rawBody.length } }),
);

describe('raw body capture', () => {
  let app: PrivateApp;
  before(async () => {
    app = await startPrivateApp([echoDigest, bigUpload], { config: { BODY_LIMIT_BYTES: 4 * 1024 } });
  });
  after(async () => app.close());

  it('a raw-body route receives the request bytes unchanged (whitespace, key order, unicode escapes)', async () => {
    const sent = Buffer.from('{ "b":1,\n  "a" : "caf\\u00e9 ☕" }\r\n', 'utf8');
    const res = await app.call('POST', '/test/raw', { rawBody: sent, headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.sha256, createHash('sha256').update(sent).digest('hex'));
    assert.equal(res.body.length, sent.length);
    assert.equal(res.body.parsed, false, 'a raw-body route is not JSON-parsed');
  });

  it('a route with its own body limit accepts bodies above the app limit and answers 413 above its own', async () => {
    const octets = { 'content-type': 'application/octet-stream' };
    const fits = await app.call('POST', '/test/upload', { rawBody: Buffer.alloc(32 * 1024, 1), headers: octets });
    assert.equal(fits.status, 200);
    assert.equal(fits.body.length, 32 * 1024);
    const tooBig = await app.call('POST', '/test/upload', { rawBody: Buffer.alloc(65 * 1024, 1), headers: octets });
    assert.equal(tooBig.status, 413);
    assert.equal(tooBig.body.code, 'payload_too_large');
    const appLimit = await app.call('POST', '/test/raw', { rawBody: Buffer.alloc(5 * 1024, 1), headers: octets });
    assert.equal(appLimit.status, 413, 'other routes keep the app limit');
  });

  it('a raw-body route accepts bytes that are not JSON at all', async () => {
    const sent = Buffer.from([0xff, 0x00, 0x7b, 0x0a]);
    const res = await app.call('POST', '/test/raw', { rawBody: sent, headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.length, 4);
  });
});
