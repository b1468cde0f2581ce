import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { call } from '../../helpers/http';
import { harness } from '../../helpers/harness';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { startPrivateApp } from '../../helpers/privateApp';
import { countAssets, createItem, image, MISSING_ID, multipart, pathOf, upload } from './fixtures';

const MB = 1024 * 1024;

describe('marketing content: upload-image', () => {
  let acct: TestAccount;
  let other: TestAccount;
  let itemId: string;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
    itemId = await createItem(acct.accountId);
  });

  it('an uploaded PNG is stored in the media library, tagged content_image and content:<id>, attached to the item, and answers 201', async () => {
    const bytes = await image('png', 120, 80);
    const res = await upload(
      acct.ownerToken,
      itemId,
      { bytes, filename: 'Hero Shot.png', type: 'image/png' },
      { alt_text: 'A blue square', placement: 'hero' },
    );
    assert.equal(res.status, 201, res.text);
    const { asset } = res.body;
    assert.deepEqual(
      {
        content_id: res.body.content_id,
        placement: res.body.placement,
        filename: asset.filename,
        mime_type: asset.mime_type,
        width: asset.width,
        height: asset.height,
        byte_size: asset.byte_size,
        sha256: asset.sha256,
        tags: asset.tags,
        alt_text: asset.alt_text,
      },
      {
        content_id: itemId,
        placement: 'hero',
        filename: 'Hero-Shot.png',
        mime_type: 'image/png',
        width: 120,
        height: 80,
        byte_size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        tags: ['content_image', `content:${itemId}`],
        alt_text: 'A blue square',
      },
    );
    const attached = await harness().db('content_item_images').where({ content_id: itemId, asset_id: asset.id }).first();
    assert.equal(attached?.placement, 'hero');
  });

  it('the file is served at its url without credentials, byte for byte, with its type, nosniff, a year of immutable caching and an ETag', async () => {
    const bytes = await image('png');
    const {
      body: { asset },
    } = await upload(acct.ownerToken, itemId, { bytes, filename: 'a.png' });
    assert.match(asset.url, /^http:\/\/127\.0\.0\.1:\d+\/media\/[A-Za-z0-9_-]{43}\/a\.png$/);
    const res = await fetch(`${harness().baseUrl}${pathOf(asset.url)}`);
    assert.equal(res.status, 200);
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(bytes), 'served bytes differ from the upload');
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(res.headers.get('etag'), `"${asset.sha256}"`);
    const again = await fetch(`${harness().baseUrl}${pathOf(asset.url)}`, { headers: { 'if-none-match': `"${asset.sha256}"` } });
    assert.equal(again.status, 304);
  });

  it('with PUBLIC_APP_URL set, asset urls point at it', async () => {
    const app = await startPrivateApp([], { config: { PUBLIC_APP_URL: 'https://app.example.com/' } });
    try {
      const res = await app.call('POST', `/api/marketing/content/${itemId}/upload-image`, {
        token: acct.ownerToken,
        ...(await multipart([{ bytes: await image('png'), filename: 'p.png' }])),
      });
      assert.equal(res.status, 201, res.text);
      assert.match(res.body.asset.url, /^https:\/\/app\.example\.com\/media\/[A-Za-z0-9_-]{43}\/p\.png$/);
    } finally {
      await app.close();
    }
  });

  it('the url is unguessable: a 43-character random token; another token or another file name answers 404', async () => {
    const a = (await upload(acct.ownerToken, itemId, { bytes: await image('png'), filename: 'same.png' })).body.asset;
    const b = (await upload(acct.ownerToken, itemId, { bytes: await image('png'), filename: 'same.png' })).body.asset;
    const tokenOf = (url: string) => pathOf(url).split('/')[2];
    assert.equal(tokenOf(a.url).length, 43);
    assert.notEqual(tokenOf(a.url), tokenOf(b.url), 'the same bytes and name still get a fresh token');
    for (const path of [
      `/media/${randomBytes(32).toString('base64url')}/same.png`,
      `/media/${tokenOf(a.url)}/other.png`,
      '/media/x/same.png',
    ]) {
      const res = await call('GET', path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.code, 'media_not_found');
    }
  });

  it('type and size come from decoding the image: a JPEG named .png and declared image/png is stored as image/jpeg with a .jpg name', async () => {
    const res = await upload(acct.ownerToken, itemId, {
      bytes: await image('jpeg', 30, 20),
      filename: '../../etc/Photo (1).png',
      type: 'image/png',
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(
      [res.body.asset.mime_type, res.body.asset.filename, res.body.asset.width, res.body.asset.height],
      ['image/jpeg', 'Photo-1.jpg', 30, 20],
    );
    const served = await fetch(`${harness().baseUrl}${pathOf(res.body.asset.url)}`);
    assert.equal(served.headers.get('content-type'), 'image/jpeg');
  });

  it('WebP, GIF and AVIF are accepted too', async () => {
    for (const [format, mime] of [
      ['webp', 'image/webp'],
      ['gif', 'image/gif'],
      ['avif', 'image/avif'],
    ] as const) {
      const res = await upload(acct.ownerToken, itemId, { bytes: await image(format), filename: `x.${format}` });
      assert.equal(res.status, 201, `${format}: ${res.text}`);
      assert.equal(res.body.asset.mime_type, mime);
    }
  });

  it('width and height are as displayed: an EXIF-rotated portrait photo reports its upright size', async () => {
    const rotated = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#fa0' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const res = await upload(acct.ownerToken, itemId, { bytes: rotated, filename: 'phone.jpg' });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual([res.body.asset.width, res.body.asset.height], [30, 40]);
  });

  describe('refusals write nothing', () => {
    let before: number;
    beforeEach(async () => {
      before = await countAssets(acct.accountId);
    });
    afterEach(async () => {
      assert.equal(await countAssets(acct.accountId), before, 'a refused upload wrote an asset');
    });

    it('a file that is not an image (text renamed .png, declared image/png) is 415 unsupported_image', async () => {
      const res = await upload(acct.ownerToken, itemId, {
        bytes: Buffer.from('hello, I am not a picture at all'),
        filename: 'fake.png',
        type: 'image/png',
      });
      assert.equal(res.status, 415, res.text);
      assert.equal(res.body.code, 'unsupported_image');
    });

    it('SVG is refused with 415 unsupported_image (it can carry scripts)', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
      const res = await upload(acct.ownerToken, itemId, { bytes: svg, filename: 'logo.svg', type: 'image/svg+xml' });
      assert.equal(res.status, 415, res.text);
      assert.equal(res.body.code, 'unsupported_image');
    });

    it('a truncated PNG (valid header, missing pixels) is 400 invalid_image', async () => {
      const png = await sharp({
        create: { width: 200, height: 200, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
      })
        .png()
        .toBuffer();
      const res = await upload(acct.ownerToken, itemId, { bytes: png.subarray(0, Math.floor(png.length / 2)), filename: 'cut.png' });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'invalid_image');
    });

    it('an image over 32 megapixels (6000×6000) is 400 image_too_large with its size', async () => {
      const big = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: '#0a0' } })
        .png({ compressionLevel: 9 })
        .toBuffer();
      const res = await upload(acct.ownerToken, itemId, { bytes: big, filename: 'huge.png' });
      assert.equal(res.status, 400, res.text);
      assert.deepEqual([res.body.code, res.body.width, res.body.height, res.body.max_pixels], ['image_too_large', 6000, 6000, 32_000_000]);
    });

    it('a file over 25 MB is 413 file_too_large; a request over 25 MB plus the envelope allowance is 413 payload_too_large', async function () {
      this.timeout(30_000);
      const overFile = await upload(acct.ownerToken, itemId, { bytes: randomBytes(25 * MB + 1), filename: 'big.png' });
      assert.equal(overFile.status, 413, overFile.text);
      assert.equal(overFile.body.code, 'file_too_large');
      const overBody = await upload(acct.ownerToken, itemId, { bytes: randomBytes(26 * MB), filename: 'bigger.png' });
      assert.equal(overBody.status, 413, overBody.text);
      assert.equal(overBody.body.code, 'payload_too_large');
    });

    it('the multipart shape is checked: no file, an empty file, two files, a file under another name, an unknown field, alt_text too long', async () => {
      const png = await image('png');
      const path = `/api/marketing/content/${itemId}/upload-image`;
      const cases: Array<[Parameters<typeof multipart>, string]> = [
        [[[], { alt_text: 'x' }], 'body.file'],
        [[[{ bytes: Buffer.alloc(0), filename: '' }]], 'body.file'],
        [
          [
            [
              { bytes: png, filename: 'a.png' },
              { bytes: png, filename: 'b.png' },
            ],
          ],
          'body.file',
        ],
        [[[{ bytes: png, filename: 'a.png', field: 'image' }]], 'body.image'],
        [[[{ bytes: png, filename: 'a.png' }], { caption: 'hi' }], 'body'],
        [[[{ bytes: png, filename: 'a.png' }], { alt_text: 'x'.repeat(1001) }], 'body.alt_text'],
      ];
      for (const [args, path_] of cases) {
        const res = await call('POST', path, { token: acct.ownerToken, ...(await multipart(...args)) });
        assert.equal(res.status, 400, `${path_}: ${res.text}`);
        assert.equal(res.body.code, 'validation_failed', res.text);
        assert.ok(
          res.body.errors.some((e: { path: string }) => e.path === path_),
          `expected an error on ${path_}: ${res.text}`,
        );
      }
    });

    it('a body that is not multipart/form-data is 415 unsupported_media_type', async () => {
      const res = await call('POST', `/api/marketing/content/${itemId}/upload-image`, { token: acct.ownerToken, body: { file: 'x' } });
      assert.equal(res.status, 415, res.text);
      assert.equal(res.body.code, 'unsupported_media_type');
    });

    it('an item of another account, a missing item and a malformed id answer 404 content_not_found', async () => {
      const theirs = await createItem(other.accountId);
      for (const id of [theirs, MISSING_ID, 'not-a-uuid']) {
        const res = await upload(acct.ownerToken, id, { bytes: await image('png'), filename: 'a.png' });
        assert.equal(res.status, 404, res.text);
        assert.equal(res.body.code, 'content_not_found');
      }
      assert.equal(await countAssets(other.accountId), 0);
    });

    it('a read-only agent key is 403 read_only_key; a key without marketing.content:update is 403 missing_permission', async () => {
      const readOnly = await newAgentKey(acct.accountId, ['marketing.content:read', 'marketing.content:update'], true);
      const readerOnly = await newAgentKey(acct.accountId, ['marketing.content:read']);
      const file = { bytes: await image('png'), filename: 'a.png' };
      const a = await upload(readOnly, itemId, file, {}, true);
      assert.deepEqual([a.status, a.body.code], [403, 'read_only_key']);
      const b = await upload(readerOnly, itemId, file, {}, true);
      assert.deepEqual([b.status, b.body.code], [403, 'missing_permission']);
    });
  });

  it('the agent twin uploads with an agent key holding marketing.content:update', async () => {
    const key = await newAgentKey(acct.accountId, ['marketing.content:update']);
    const res = await upload(key, itemId, { bytes: await image('png'), filename: 'agent.png' }, {}, true);
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.asset.tags, ['content_image', `content:${itemId}`]);
  });
});
