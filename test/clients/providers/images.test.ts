import assert from 'node:assert/strict';
import sharp from 'sharp';
import { createImageClient, MAX_GENERATED_IMAGE_BYTES, type ImageClient } from '../../../src/clients/providers/images';
import { startImageSimulator, type ImageSimulator } from '../../../src/sandbox/images';
import { assertKeyAbsent, assertProviderError, CLOSED_PORT_URL, providerFailure } from './providerErrors';

const png = (width: number, height: number, background = '#2255aa') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

describe('images client (OpenAI-compatible Images API, against the simulator)', () => {
  let sim: ImageSimulator;
  let client: ImageClient;
  const config = (overrides: Record<string, unknown> = {}) => ({
    IMAGE_API_URL: sim.url,
    IMAGE_API_KEY: sim.apiKey,
    IMAGE_MODEL: 'gpt-image-1',
    IMAGE_TIMEOUT_MS: 5000,
    ...overrides,
  });
  before(async () => {
    sim = await startImageSimulator();
    client = createImageClient(config())!;
  });
  afterEach(() => sim.reset());
  after(() => sim.stop());

  it('generates over POST /images/generations: a real PNG that sharp decodes at the asked size', async () => {
    const image = await client.generate({ prompt: 'A heat pump beside a brick house', size: '1536x1024' });
    assert.equal(image.mimeType, 'image/png');
    assert.deepEqual([image.width, image.height], [1536, 1024]);
    const meta = await sharp(image.bytes).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 1536, 1024]);
    assert.equal(image.revisedPrompt, null);
    const sent = sim.requests.at(-1)!;
    assert.deepEqual(
      [sent.endpoint, sent.model, sent.prompt, sent.size, sent.n, sent.references.length],
      ['generations', 'gpt-image-1', 'A heat pump beside a brick house', '1536x1024', 1, 0],
    );
  });

  it('defaults to 1024x1024; a trailing slash on IMAGE_API_URL still reaches /images/generations', async () => {
    const slash = createImageClient(config({ IMAGE_API_URL: `${sim.url}/` }))!;
    const image = await slash.generate({ prompt: 'A square picture' });
    assert.deepEqual([image.width, image.height], [1024, 1024]);
  });

  it('distinct prompts give distinct bytes', async () => {
    const a = await client.generate({ prompt: 'Insulation in a loft' });
    const b = await client.generate({ prompt: 'A smart thermostat on a wall' });
    assert.ok(!a.bytes.equals(b.bytes));
  });

  it('with reference images it POSTs multipart to /images/edits, one image[] part per reference', async () => {
    const logo = await png(80, 40);
    const brand = await sharp(await png(50, 50, '#aa2200'))
      .jpeg()
      .toBuffer();
    const image = await client.generate({
      prompt: 'Our brand on a van',
      size: '1024x1536',
      references: [
        { bytes: logo, mimeType: 'image/png' },
        { bytes: brand, mimeType: 'image/jpeg' },
      ],
    });
    assert.deepEqual([image.width, image.height], [1024, 1536]);
    const sent = sim.requests.at(-1)!;
    assert.equal(sent.endpoint, 'edits');
    assert.equal(sent.prompt, 'Our brand on a van');
    assert.deepEqual(
      sent.references.map((r) => [r.mimeType, r.bytes, r.width, r.height]),
      [
        ['image/png', logo.length, 80, 40],
        ['image/jpeg', brand.length, 50, 50],
      ],
    );
  });

  it('outputFormat webp answers a WebP; dall-e models are asked for b64_json and give a revised prompt', async () => {
    const webp = await client.generate({ prompt: 'A kettle', outputFormat: 'webp' });
    assert.equal(webp.mimeType, 'image/webp');
    const dalle = createImageClient(config({ IMAGE_MODEL: 'dall-e-3' }))!;
    const image = await dalle.generate({ prompt: 'A barn', size: '1792x1024' });
    assert.deepEqual([image.width, image.height], [1792, 1024]);
    assert.match(image.revisedPrompt ?? '', /A barn/);
  });

  it('no client without a key', () => {
    assert.equal(createImageClient(config({ IMAGE_API_KEY: undefined })), null);
  });

  describe('errors', () => {
    it('400 (a refused prompt) is image_request_rejected, not retryable, with the upstream code', async () => {
      sim.failPrompts('forbidden', 400);
      const err = await providerFailure(client.generate({ prompt: 'something forbidden' }));
      assertProviderError(err, 'image_request_rejected', false, 400);
      assert.equal(err.provider, 'image');
      assert.equal(err.upstreamCode, 'moderation_blocked');
    });

    it('a size the model does not take is image_request_rejected (the provider validates it)', async () => {
      const err = await providerFailure(client.generate({ prompt: 'x', size: '512x512' }));
      assertProviderError(err, 'image_request_rejected', false, 400);
    });

    it('401 is image_provider_auth, not retryable, and the key is not in the error', async () => {
      const wrongKey = 'sk-wrong-0123456789QZXW';
      const err = await providerFailure(createImageClient(config({ IMAGE_API_KEY: wrongKey }))!.generate({ prompt: 'x' }));
      assertProviderError(err, 'image_provider_auth', false, 401);
      assertKeyAbsent(err, wrongKey);
      assertKeyAbsent(err, wrongKey.slice(-4));
    });

    it('403 is image_provider_auth too', async () => {
      sim.failNext(1, 403);
      assertProviderError(await providerFailure(client.generate({ prompt: 'x' })), 'image_provider_auth', false, 403);
    });

    it('429 is image_rate_limited, retryable, with Retry-After in seconds', async () => {
      sim.failNext(1, 429, { retryAfter: '7' });
      const err = await providerFailure(client.generate({ prompt: 'x' }));
      assertProviderError(err, 'image_rate_limited', true, 429);
      assert.equal(err.retryAfterSeconds, 7);
    });

    it('429 insufficient_quota is image_rate_limited, not retryable', async () => {
      sim.failNext(1, 429, { code: 'insufficient_quota' });
      assertProviderError(await providerFailure(client.generate({ prompt: 'x' })), 'image_rate_limited', false, 429);
    });

    it('500 and 503 are image_unavailable, retryable', async () => {
      for (const status of [500, 503]) {
        sim.failNext(1, status);
        assertProviderError(await providerFailure(client.generate({ prompt: 'x' })), 'image_unavailable', true, status);
      }
    });

    it('a render slower than IMAGE_TIMEOUT_MS is image_unavailable (timed out), retryable', async () => {
      sim.delayMs = 1500;
      const started = Date.now();
      const err = await providerFailure(createImageClient(config({ IMAGE_TIMEOUT_MS: 300 }))!.generate({ prompt: 'slow' }));
      assertProviderError(err, 'image_unavailable', true);
      assert.match(err.message, /timed out/);
      assert.ok(Date.now() - started < 1400, 'the client gave up at its deadline');
    });

    it('a refused connection is image_unavailable, retryable', async () => {
      const down = createImageClient(config({ IMAGE_API_URL: CLOSED_PORT_URL }))!;
      assertProviderError(await providerFailure(down.generate({ prompt: 'x' })), 'image_unavailable', true);
    });

    it('malformed bodies (not JSON, no data, base64 that is not an image) are image_bad_response, not retryable', async () => {
      for (const kind of ['not_json', 'no_data', 'not_image'] as const) {
        sim.malformedNext(1, kind);
        assertProviderError(await providerFailure(client.generate({ prompt: 'x' })), 'image_bad_response', false);
      }
    });

    it('a cancelled call rethrows the abort reason', async () => {
      sim.delayMs = 1000;
      const controller = new AbortController();
      const reason = new Error('activity cancelled');
      setTimeout(() => controller.abort(reason), 50);
      await assert.rejects(client.generate({ prompt: 'x', signal: controller.signal }), (err) => err === reason);
    });
  });

  describe('image-import limits', () => {
    it('an image over 32 megapixels is image_too_large, not retryable', async () => {
      sim.answerNext(await png(6000, 6000));
      const err = await providerFailure(client.generate({ prompt: 'huge' }));
      assertProviderError(err, 'image_too_large', false);
      assert.match(err.message, /6000×6000/);
    });

    it('an image over 25 MB decoded is image_too_large', async () => {
      sim.answerNext(Buffer.alloc(MAX_GENERATED_IMAGE_BYTES + 1, 7));
      assertProviderError(await providerFailure(client.generate({ prompt: 'heavy' })), 'image_too_large', false);
    });

    it('the limits hold at their exact values (given smaller limits)', async () => {
      const small = createImageClient(config(), { maxBytes: 200_000, maxPixels: 1024 * 1024 })!;
      const square = await small.generate({ prompt: 'A square', size: '1024x1024' });
      assert.equal(square.width * square.height, 1024 * 1024);
      assertProviderError(await providerFailure(small.generate({ prompt: 'A wide one', size: '1536x1024' })), 'image_too_large', false);
      sim.answerNext(Buffer.alloc(200_001, 1));
      assertProviderError(await providerFailure(small.generate({ prompt: 'heavy' })), 'image_too_large', false);
    });

    it('more than 16 reference images or one that is not an image type is refused before any call', async () => {
      const calls = sim.calls;
      const ref = { bytes: await png(8, 8), mimeType: 'image/png' as const };
      const tooMany = await providerFailure(client.generate({ prompt: 'x', references: Array.from({ length: 17 }, () => ref) }));
      assertProviderError(tooMany, 'image_request_rejected', false);
      const svg = { bytes: Buffer.from('<svg/>'), mimeType: 'image/svg+xml' as never };
      assertProviderError(await providerFailure(client.generate({ prompt: 'x', references: [svg] })), 'image_request_rejected', false);
      assert.equal(sim.calls, calls);
    });
  });
});
