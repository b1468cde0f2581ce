import assert from 'node:assert/strict';
import sharp from 'sharp';
import { startImageSimulator, type ImageSimulator } from '../../../src/sandbox/images';

const png = (width: number, height: number, background = '#cc3300') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

describe('image simulator (OpenAI Images API on loopback)', () => {
  let sim: ImageSimulator;
  const generate = (body: unknown, key: string | null = sim.apiKey) =>
    fetch(`${sim.url}/images/generations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });
  const edit = (form: FormData) =>
    fetch(`${sim.url}/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${sim.apiKey}` }, body: form });
  const imageOf = async (res: Response) => {
    const body = (await res.json()) as any;
    assert.equal(res.status, 200, JSON.stringify(body));
    return Buffer.from(body.data[0].b64_json, 'base64');
  };
  before(async () => {
    sim = await startImageSimulator();
  });
  afterEach(() => sim.reset());
  after(() => sim.stop());

  it('its base URL ends with /v1; another path is 404', async () => {
    assert.match(sim.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    assert.equal((await fetch(`${sim.url}/images/variations`, { method: 'POST' })).status, 404);
  });

  it('without the Bearer key it answers 401 invalid_api_key and never echoes the whole key', async () => {
    for (const key of ['sk-wrong-key-0123456789', null]) {
      const res = await generate({ model: 'gpt-image-1', prompt: 'x' }, key);
      assert.equal(res.status, 401);
      const body = (await res.json()) as any;
      assert.equal(body.error.code, 'invalid_api_key');
      assert.ok(!body.error.message.includes('sk-wrong-key-0123456789'));
    }
  });

  it('generations answer {created, data:[{b64_json}]} with a real PNG at each GPT image size (auto is 1024x1024)', async () => {
    for (const [size, width, height] of [
      ['1024x1024', 1024, 1024],
      ['1536x1024', 1536, 1024],
      ['1024x1536', 1024, 1536],
      ['auto', 1024, 1024],
    ] as const) {
      const res = await generate({ model: 'gpt-image-1', prompt: 'A lighthouse in fog', size, n: 1 });
      const meta = await sharp(await imageOf(res)).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['png', width, height], size);
    }
    assert.deepEqual(
      sim.requests.map((r) => [r.endpoint, r.size, r.references.length, r.status]),
      [
        ['generations', '1024x1024', 0, 200],
        ['generations', '1536x1024', 0, 200],
        ['generations', '1024x1536', 0, 200],
        ['generations', 'auto', 0, 200],
      ],
    );
  });

  it('distinct prompts render distinct images; the same prompt renders the same bytes', async () => {
    const a = await imageOf(await generate({ model: 'gpt-image-1', prompt: 'Solar panels on a roof', size: '1024x1024' }));
    const b = await imageOf(await generate({ model: 'gpt-image-1', prompt: 'A battery in a garage', size: '1024x1024' }));
    const again = await imageOf(await generate({ model: 'gpt-image-1', prompt: 'Solar panels on a roof', size: '1024x1024' }));
    assert.ok(!a.equals(b));
    assert.ok(a.equals(again));
  });

  it('output_format jpeg and webp give those formats', async () => {
    for (const format of ['jpeg', 'webp']) {
      const bytes = await imageOf(await generate({ model: 'gpt-image-1', prompt: 'A kettle', size: '1024x1024', output_format: format }));
      assert.equal((await sharp(bytes).metadata()).format, format);
    }
  });

  it('sizes, parameters and prompts are validated per model as the reference documents', async () => {
    const cases: Array<[unknown, string]> = [
      [{ model: 'gpt-image-1', prompt: 'x', size: '512x512' }, 'size'],
      [{ model: 'gpt-image-1', prompt: 'x', response_format: 'b64_json' }, 'response_format'],
      [{ model: 'gpt-image-1', prompt: '' }, 'prompt'],
      [{ model: 'gpt-image-1', prompt: 'x', n: 11 }, 'n'],
      [{ model: 'gpt-image-1', prompt: 'x', colour: 'blue' }, 'colour'],
      [{ model: 'dall-e-3', prompt: 'x', size: '1536x1024', response_format: 'b64_json' }, 'size'],
      [{ model: 'no-such-model', prompt: 'x' }, 'model'],
    ];
    for (const [body, param] of cases) {
      const res = await generate(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(((await res.json()) as any).error.param, param);
    }
    assert.equal(sim.requests.length, 0, 'invalid requests are not recorded');
  });

  it('dall-e-3 takes its own sizes and answers a revised_prompt', async () => {
    const res = await generate({ model: 'dall-e-3', prompt: 'A barn', size: '1792x1024', response_format: 'b64_json' });
    const body = (await res.json()) as any;
    assert.equal(res.status, 200);
    assert.match(body.data[0].revised_prompt, /A barn/);
    assert.equal((await sharp(Buffer.from(body.data[0].b64_json, 'base64')).metadata()).width, 1792);
  });

  it('edits take multipart image[] parts and record how many reference images came', async () => {
    const form = new FormData();
    form.set('model', 'gpt-image-1');
    form.set('prompt', 'Our logo on a mug');
    form.set('size', '1536x1024');
    form.append('image[]', new Blob([await png(64, 32)], { type: 'image/png' }), 'logo.png');
    const jpeg = await sharp(await png(40, 40, '#0033cc'))
      .jpeg()
      .toBuffer();
    form.append('image[]', new Blob([jpeg], { type: 'image/jpeg' }), 'brand.jpg');
    const meta = await sharp(await imageOf(await edit(form))).metadata();
    assert.deepEqual([meta.width, meta.height], [1536, 1024]);
    const recorded = sim.requests.at(-1)!;
    assert.equal(recorded.endpoint, 'edits');
    assert.equal(recorded.prompt, 'Our logo on a mug');
    assert.deepEqual(
      recorded.references.map((r) => [r.filename, r.mimeType, r.width, r.height]),
      [
        ['logo.png', 'image/png', 64, 32],
        ['brand.jpg', 'image/jpeg', 40, 40],
      ],
    );
  });

  it('edits refuse a missing image, a file that is not an image and a JSON body', async () => {
    const noImage = new FormData();
    noImage.set('model', 'gpt-image-1');
    noImage.set('prompt', 'x');
    assert.equal(((await (await edit(noImage)).json()) as any).error.param, 'image');
    const text = new FormData();
    text.set('model', 'gpt-image-1');
    text.set('prompt', 'x');
    text.append('image[]', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
    const res = await edit(text);
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as any).error.code, 'unsupported_file_mimetype');
    const json = await fetch(`${sim.url}/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'x' }),
    });
    assert.equal(json.status, 400);
  });

  it('failNext answers the given status for the next N calls (429 with Retry-After), then renders again', async () => {
    sim.failNext(2, 429, { retryAfter: '7' });
    for (let i = 0; i < 2; i += 1) {
      const res = await generate({ model: 'gpt-image-1', prompt: 'x' });
      assert.equal(res.status, 429);
      assert.equal(res.headers.get('retry-after'), '7');
      assert.equal(((await res.json()) as any).error.code, 'rate_limit_exceeded');
    }
    assert.equal((await generate({ model: 'gpt-image-1', prompt: 'x' })).status, 200);
    assert.deepEqual(
      sim.requests.map((r) => r.status),
      [429, 429, 200],
    );
  });

  it('failPrompts fails every prompt containing the substring until reset; others render', async () => {
    sim.failPrompts('forbidden', 400);
    const res = await generate({ model: 'gpt-image-1', prompt: 'a forbidden picture' });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as any).error.code, 'moderation_blocked');
    assert.equal((await generate({ model: 'gpt-image-1', prompt: 'an allowed picture' })).status, 200);
    assert.equal((await generate({ model: 'gpt-image-1', prompt: 'forbidden again' })).status, 400);
    assert.deepEqual(
      sim.requests.map((r) => r.status),
      [400, 200, 400],
    );
  });

  it('delayMs is spent per render, and concurrent requests render in parallel', async () => {
    sim.delayMs = 300;
    const started = Date.now();
    const answers = await Promise.all([1, 2, 3].map((i) => generate({ model: 'gpt-image-1', prompt: `picture ${i}` })));
    const elapsed = Date.now() - started;
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200],
    );
    assert.ok(elapsed >= 300 && elapsed < 850, `3 renders of 300 ms took ${elapsed} ms`);
    assert.equal(sim.maxInFlight, 3);
  });

  it('malformedNext answers broken bodies of each kind', async () => {
    sim.malformedNext(1, 'not_json');
    const res = await generate({ model: 'gpt-image-1', prompt: 'x' });
    await assert.rejects(res.json());
    sim.malformedNext(1, 'no_data');
    assert.deepEqual(((await (await generate({ model: 'gpt-image-1', prompt: 'x' })).json()) as any).data, []);
  });
});
