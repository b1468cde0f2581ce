import assert from 'node:assert/strict';
import { extractionMessages } from '../../../src/research/claims/prompt';
import { FABRICATED_QUOTE, startModelSimulator, type ModelSimulator } from '../../../src/sandbox/model';

const source = [
  'Heat pumps cut heating bills by 40% in a 2023 field trial of 500 homes.',
  'They are quiet. Most owners say so without being asked.',
  'A typical unit costs $12,000 and lasts 20 years with yearly servicing.',
].join('\n\n');

describe('model simulator (OpenAI chat completions on loopback)', () => {
  let sim: ModelSimulator;
  const post = (body: unknown, key: string | null = sim.apiKey) =>
    fetch(`${sim.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });
  const extraction = (maxClaims = 5) => ({
    model: 'gpt-4o-mini',
    temperature: 0,
    response_format: { type: 'json_object' },
    messages: extractionMessages({ topic: 'Heat pumps', keyword: null, text: source, maxClaims }),
  });
  before(async () => {
    sim = await startModelSimulator();
  });
  afterEach(() => {
    sim.fabricateQuotes(false);
    sim.delayMs = 0;
  });
  after(() => sim.stop());

  it('its base URL ends with /v1', () => {
    assert.match(sim.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('without the Bearer key it answers 401 invalid_api_key', async () => {
    for (const key of ['sk-wrong', null]) {
      const res = await post(extraction(), key);
      assert.equal(res.status, 401);
      assert.equal(((await res.json()) as any).error.code, 'invalid_api_key');
    }
  });

  it('answers an OpenAI-shaped completion whose content is {claims} quoted verbatim from sentences that carry facts', async () => {
    const calls = sim.calls;
    const res = await post(extraction());
    assert.equal(res.status, 200);
    const body = (await res.json()) as any;
    assert.equal(sim.calls, calls + 1);
    assert.equal(body.object, 'chat.completion');
    assert.equal(body.choices[0].message.role, 'assistant');
    assert.equal(body.choices[0].finish_reason, 'stop');
    assert.ok(body.usage.total_tokens > 0);
    const { claims } = JSON.parse(body.choices[0].message.content);
    assert.deepEqual(
      claims.map((c: { quote: string }) => c.quote),
      [
        'Heat pumps cut heating bills by 40% in a 2023 field trial of 500 homes.',
        'A typical unit costs $12,000 and lasts 20 years with yearly servicing.',
      ],
    );
    for (const claim of claims) assert.ok(claim.confidence >= 0.6 && claim.confidence <= 0.9 && claim.claim.length > 0);
  });

  it('answers the same request the same way', async () => {
    const first = (await (await post(extraction())).json()) as any;
    const second = (await (await post(extraction())).json()) as any;
    assert.equal(first.choices[0].message.content, second.choices[0].message.content);
  });

  it('fabricateQuotes(true) adds a claim whose quote is not in the text', async () => {
    sim.fabricateQuotes(true);
    const { claims } = JSON.parse(((await (await post(extraction())).json()) as any).choices[0].message.content);
    assert.ok(claims.some((c: { quote: string }) => c.quote === FABRICATED_QUOTE));
    assert.ok(!source.includes(FABRICATED_QUOTE));
  });

  it('JSON mode without the word JSON in the messages is 400, as the provider does', async () => {
    const res = await post({ model: 'm', response_format: { type: 'json_object' }, messages: [{ role: 'user', content: 'hello' }] });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as any).error.type, 'invalid_request_error');
  });

  it('failNext(n, 429) answers 429 with Retry-After; failNext(n, 503) answers 503', async () => {
    sim.failNext(1, 429);
    const limited = await post(extraction());
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '1');
    sim.failNext(1, 503);
    assert.equal((await post(extraction())).status, 503);
    assert.equal((await post(extraction())).status, 200);
  });

  it('max_tokens cuts the content off with finish_reason length', async () => {
    const body = (await (await post({ ...extraction(), max_tokens: 10 })).json()) as any;
    assert.equal(body.choices[0].finish_reason, 'length');
    assert.equal(body.choices[0].message.content.length, 40);
  });

  it('delayMs holds the answer', async () => {
    sim.delayMs = 200;
    const started = Date.now();
    await post(extraction());
    assert.ok(Date.now() - started >= 190);
  });
});
