import assert from 'node:assert/strict';
import { createChatClient, type ChatClient } from '../../../src/clients/providers/chatCompletions';
import { startModelSimulator, type ModelSimulator } from '../../../src/sandbox/model';
import { assertKeyAbsent, assertProviderError, CLOSED_PORT_URL, providerFailure } from './providerErrors';

describe('chat completions client (OpenAI-compatible, against the simulator)', () => {
  let sim: ModelSimulator;
  let client: ChatClient;
  const config = (overrides: Record<string, unknown> = {}) => ({
    MODEL_API_URL: sim.url,
    MODEL_API_KEY: sim.apiKey,
    MODEL_CHAT_MODEL: 'gpt-4o-mini',
    FETCH_TIMEOUT_MS: 2000,
    ...overrides,
  });
  const ask = [
    { role: 'system' as const, content: 'Answer in JSON.' },
    { role: 'user' as const, content: 'Say something.' },
  ];
  before(async () => {
    sim = await startModelSimulator();
    client = createChatClient(config())!;
  });
  beforeEach(() => {
    sim.delayMs = 0;
  });
  after(() => sim.stop());

  it('POSTs {model, messages, temperature 0, response_format} with Authorization: Bearer <key> and returns choices[0].message.content', async () => {
    const calls = sim.calls;
    const content = await client.complete(ask, { jsonObject: true, maxTokens: 300 });
    assert.equal(sim.calls, calls + 1);
    assert.deepEqual(sim.requests.at(-1), {
      model: 'gpt-4o-mini',
      messages: ask,
      temperature: 0,
      response_format: { type: 'json_object' },
      max_tokens: 300,
    });
    assert.deepEqual(JSON.parse(content), { claims: [] });
  });

  it('leaves response_format and max_tokens out unless asked', async () => {
    const content = await client.complete(ask);
    assert.deepEqual(sim.requests.at(-1), { model: 'gpt-4o-mini', messages: ask, temperature: 0 });
    assert.equal(typeof content, 'string');
  });

  it('a trailing slash on MODEL_API_URL still reaches /chat/completions', async () => {
    const slash = createChatClient(config({ MODEL_API_URL: `${sim.url}/` }))!;
    assert.equal(typeof (await slash.complete(ask)), 'string');
  });

  it('no client without a key', () => {
    assert.equal(createChatClient(config({ MODEL_API_KEY: undefined })), null);
  });

  it('a wrong key is model_unauthorized (401, not retryable) and the key is not in the error', async () => {
    const wrongKey = 'sk-wrong-0123456789QZXW';
    const err = await providerFailure(createChatClient(config({ MODEL_API_KEY: wrongKey }))!.complete(ask));
    assertProviderError(err, 'model_unauthorized', false, 401);
    assert.equal(err.provider, 'model');
    assertKeyAbsent(err, wrongKey);
    assertKeyAbsent(err, wrongKey.slice(-4)); // the provider echoes a masked key; none of it is passed on
  });

  it('429 is model_rate_limited, retryable', async () => {
    sim.failNext(1, 429);
    const err = await providerFailure(client.complete(ask));
    assertProviderError(err, 'model_rate_limited', true, 429);
    assert.equal(err.retryAfterSeconds, 1);
    assertKeyAbsent(err, sim.apiKey);
  });

  it('5xx is model_unavailable, retryable', async () => {
    sim.failNext(1, 500);
    assertProviderError(await providerFailure(client.complete(ask)), 'model_unavailable', true, 500);
    sim.failNext(1, 503);
    assertProviderError(await providerFailure(client.complete(ask)), 'model_unavailable', true, 503);
  });

  it('a request the provider refuses (400) is model_bad_response, not retryable', async () => {
    // The provider refuses JSON mode when no message mentions JSON.
    const err = await providerFailure(client.complete([{ role: 'user', content: 'Say something.' }], { jsonObject: true }));
    assertProviderError(err, 'model_bad_response', false, 400);
  });

  it('a refused connection is model_unavailable, retryable', async () => {
    const down = createChatClient(config({ MODEL_API_URL: CLOSED_PORT_URL }))!;
    assertProviderError(await providerFailure(down.complete(ask)), 'model_unavailable', true);
  });

  it('a cancelled call rethrows the abort reason', async () => {
    sim.delayMs = 1000;
    const controller = new AbortController();
    const reason = new Error('activity cancelled');
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(client.complete(ask, { signal: controller.signal }), (err) => err === reason);
  });
});
