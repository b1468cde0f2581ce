import assert from 'node:assert/strict';
import {
  createToolChatClient,
  type StepAnswer,
  type ToolChatClient,
  type ToolChatMessage,
  type ToolSpec,
} from '../../../src/clients/providers/chatTools';
import { startModelSimulator, type ModelSimulator } from '../../../src/sandbox/model';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../../../src/sandbox/pages/loopback';
import { assertKeyAbsent, assertProviderError, providerFailure } from './providerErrors';

const tools: ToolSpec[] = [
  {
    name: 'platform_pages_list',
    description: 'List the pages of the site.',
    parameters: { type: 'object', properties: { limit: { type: 'integer' } } },
  },
  {
    name: 'content_item_read',
    description: 'Read one content item.',
    parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  },
];

/** The assistant message that carries `answer`'s calls back, and one tool message per call answering `result(name)`. */
function answerCalls(answer: StepAnswer, result: (name: string) => string): ToolChatMessage[] {
  return [
    {
      role: 'assistant',
      content: answer.content,
      tool_calls: answer.tool_calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
    },
    ...answer.tool_calls.map((c) => ({ role: 'tool' as const, tool_call_id: c.id, content: result(c.name) })),
  ];
}

describe('tool chat client (OpenAI-compatible tool calling, against the simulator)', () => {
  let sim: ModelSimulator;
  let client: ToolChatClient;
  const config = (overrides: Record<string, unknown> = {}) => ({
    MODEL_API_URL: sim.url,
    MODEL_API_KEY: sim.apiKey,
    MODEL_CHAT_MODEL: 'gpt-4o-mini',
    FETCH_TIMEOUT_MS: 2000,
    ...overrides,
  });
  const conversation = (message: string): ToolChatMessage[] => [
    { role: 'system', content: 'You help the marketing team.' },
    { role: 'user', content: message },
  ];
  before(async () => {
    sim = await startModelSimulator();
    client = createToolChatClient(config())!;
  });
  beforeEach(() => {
    sim.delayMs = 0;
  });
  after(() => sim.stop());

  it('POSTs {model, messages, tools as functions, tool_choice auto, temperature 0, max_tokens}', async () => {
    const messages = conversation('Hello');
    await client.step(messages, tools, { maxTokens: 500 });
    assert.deepEqual(sim.requests.at(-1), {
      model: 'gpt-4o-mini',
      messages,
      tools: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })),
      tool_choice: 'auto',
      temperature: 0,
      max_tokens: 500,
    });
  });

  it('leaves tools, tool_choice and max_tokens out when there are no tools', async () => {
    const messages = conversation('Hello');
    const answer = await client.step(messages, []);
    assert.deepEqual(sim.requests.at(-1), { model: 'gpt-4o-mini', messages, temperature: 0 });
    assert.equal(typeof answer.content, 'string');
  });

  it('no client without a key', () => {
    assert.equal(createToolChatClient(config({ MODEL_API_KEY: undefined })), null);
  });

  it('scripted calls come one per step, in order, until each is answered; then the final text sums them up', async () => {
    const messages = conversation('/tool platform_pages_list {"limit": 2}\n/tool content_item_read {"id": "ci_1"}');
    const first = await client.step(messages, tools);
    assert.equal(first.finish_reason, 'tool_calls');
    assert.equal(first.content, null);
    assert.equal(first.tool_calls.length, 1);
    assert.match(first.tool_calls[0].id, /^call_0_[0-9a-f]{12}$/);
    assert.equal(first.tool_calls[0].name, 'platform_pages_list');
    assert.deepEqual(JSON.parse(first.tool_calls[0].arguments), { limit: 2 });
    messages.push(...answerCalls(first, () => '{"data":[{"id":"pg_1"},{"id":"pg_2"}]}'));

    const second = await client.step(messages, tools);
    assert.equal(second.finish_reason, 'tool_calls');
    assert.deepEqual(
      second.tool_calls.map((c) => [c.name, JSON.parse(c.arguments)]),
      [['content_item_read', { id: 'ci_1' }]],
    );
    assert.match(second.tool_calls[0].id, /^call_1_/);
    messages.push(...answerCalls(second, () => '{"id":"ci_1","title":"Heat pumps"}'));

    const last = await client.step(messages, tools);
    assert.deepEqual(last, {
      content: 'Done.\nplatform_pages_list: {"data":[{"id":"pg_1"},{"id":"pg_2"}]}\ncontent_item_read: {"id":"ci_1","title":"Heat pumps"}',
      tool_calls: [],
      finish_reason: 'stop',
    });
  });

  it('the tool messages reach the provider exactly as sent (assistant content null with tool_calls, tool_call_id)', async () => {
    const messages = conversation('/tool content_item_read {"id": "ci_9"}');
    const first = await client.step(messages, tools);
    const followUp = answerCalls(first, () => 'x'.repeat(200));
    messages.push(...followUp);
    const last = await client.step(messages, tools);
    assert.deepEqual(sim.requests.at(-1)?.messages.slice(2), followUp);
    assert.equal(last.content, `Done.\ncontent_item_read: ${'x'.repeat(80)}`, 'a tool message is quoted to 80 characters');
  });

  it('the same script gives the same call ids', async () => {
    const script = conversation('/tool content_item_read {"id": "ci_1"}');
    const [a, b] = [await client.step(script, tools), await client.step(script, tools)];
    assert.equal(a.tool_calls[0].id, b.tool_calls[0].id);
  });

  it('/parallel asks for every scripted call in one step', async () => {
    const messages = conversation('/parallel\n/tool platform_pages_list {}\n/tool content_item_read {"id": "ci_2"}');
    const first = await client.step(messages, tools);
    assert.equal(first.finish_reason, 'tool_calls');
    assert.deepEqual(
      first.tool_calls.map((c) => c.name),
      ['platform_pages_list', 'content_item_read'],
    );
    assert.notEqual(first.tool_calls[0].id, first.tool_calls[1].id);
    messages.push(...answerCalls(first, (name) => `${name} ok`));
    const last = await client.step(messages, tools);
    assert.equal(last.content, 'Done.\nplatform_pages_list: platform_pages_list ok\ncontent_item_read: content_item_read ok');
  });

  it('a scripted tool that is not offered is never called and the final text says so', async () => {
    const messages = conversation('/tool platform_page_delete {"id": "pg_1"}\n/tool platform_pages_list {}');
    const first = await client.step(messages, tools);
    assert.deepEqual(
      first.tool_calls.map((c) => c.name),
      ['platform_pages_list'],
    );
    messages.push(...answerCalls(first, () => '[]'));
    const last = await client.step(messages, tools);
    assert.equal(last.content, 'Done.\nplatform_pages_list: []\nplatform_page_delete is not available to you');
    const none = await client.step(conversation('/tool platform_page_delete {"id": "pg_1"}'), tools);
    assert.deepEqual(none, { content: 'Done.\nplatform_page_delete is not available to you', tool_calls: [], finish_reason: 'stop' });
  });

  it('/say sets the final text', async () => {
    const messages = conversation('/tool platform_pages_list {}\n/say The site has two pages.');
    const first = await client.step(messages, tools);
    messages.push(...answerCalls(first, () => '[1,2]'));
    assert.deepEqual(await client.step(messages, tools), { content: 'The site has two pages.', tool_calls: [], finish_reason: 'stop' });
  });

  it('without a directive the model answers at once', async () => {
    assert.deepEqual(await client.step(conversation('How are my pages doing?'), tools), {
      content: 'You said: How are my pages doing?',
      tool_calls: [],
      finish_reason: 'stop',
    });
  });

  it('answerNext gives the final text of a tool request', async () => {
    sim.answerNext('Nothing to do.');
    const answer = await client.step(conversation('/tool platform_pages_list {}'), tools);
    assert.deepEqual(answer, { content: 'Nothing to do.', tool_calls: [], finish_reason: 'stop' });
  });

  it('429 is model_rate_limited, retryable; 5xx model_unavailable, retryable', async () => {
    sim.failNext(1, 429);
    const limited = await providerFailure(client.step(conversation('/tool platform_pages_list {}'), tools));
    assertProviderError(limited, 'model_rate_limited', true, 429);
    assert.equal(limited.retryAfterSeconds, 1);
    assertKeyAbsent(limited, sim.apiKey);
    sim.failNext(1, 500);
    assertProviderError(await providerFailure(client.step(conversation('Hi'), tools)), 'model_unavailable', true, 500);
  });

  it('a wrong key is model_unauthorized (401, not retryable)', async () => {
    const wrong = createToolChatClient(config({ MODEL_API_KEY: 'sk-wrong-0123456789QZXW' }))!;
    assertProviderError(await providerFailure(wrong.step(conversation('Hi'), tools)), 'model_unauthorized', false, 401);
  });

  it('a malformed tool call (no id, no name) is model_bad_response, not retryable', async () => {
    sim.malformedNext(1);
    const err = await providerFailure(client.step(conversation('/tool platform_pages_list {}'), tools));
    assertProviderError(err, 'model_bad_response', false, 200);
  });

  it('a conversation the provider refuses (400: a tool message answering no call) is model_bad_response', async () => {
    const messages: ToolChatMessage[] = [...conversation('Hi'), { role: 'tool', tool_call_id: 'call_x', content: '{}' }];
    assertProviderError(await providerFailure(client.step(messages, tools)), 'model_bad_response', false, 400);
  });

  it('a cancelled step rethrows the abort reason (delayMs applies to tool requests)', async () => {
    sim.delayMs = 1000;
    const controller = new AbortController();
    const reason = new Error('activity cancelled');
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(
      client.step(conversation('/tool platform_pages_list {}'), tools, { signal: controller.signal }),
      (err) => err === reason,
    );
  });
});

describe('tool chat client: reading answers the simulator never gives (a loopback provider answering set bodies)', () => {
  let server: LoopbackServer;
  let next: unknown;
  let client: ToolChatClient;
  const ask: ToolChatMessage[] = [{ role: 'user', content: 'Hi' }];
  const answering = (message: Record<string, unknown>, finish_reason: string | null = 'tool_calls') => {
    next = { object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason }] };
  };
  before(async () => {
    server = await startLoopbackServer((_req, res) => sendJson(res, 200, next));
    client = createToolChatClient({
      MODEL_API_URL: `${server.origin}/v1`,
      MODEL_API_KEY: 'sk-test',
      MODEL_CHAT_MODEL: 'm',
      FETCH_TIMEOUT_MS: 2000,
    })!;
  });
  after(() => server.stop());

  it('drops tool calls that are not functions; arguments sent as an object become JSON text', async () => {
    answering({
      content: null,
      tool_calls: [
        { id: 'ws_1', type: 'web_search', web_search: {} },
        { id: 'call_1', type: 'function', function: { name: 'platform_pages_list', arguments: { limit: 1 } } },
      ],
    });
    assert.deepEqual(await client.step(ask, tools), {
      content: null,
      tool_calls: [{ id: 'call_1', name: 'platform_pages_list', arguments: '{"limit":1}' }],
      finish_reason: 'tool_calls',
    });
  });

  it('a refusal, a call without an id or a name, an answer with neither text nor calls: model_bad_response', async () => {
    const bad = [
      { content: null, refusal: 'I cannot help with that.' },
      { content: null, tool_calls: [{ type: 'function', function: { name: 'platform_pages_list', arguments: '{}' } }] },
      { content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { arguments: '{}' } }] },
      { content: null },
    ];
    for (const message of bad) {
      answering(message);
      assertProviderError(await providerFailure(client.step(ask, tools)), 'model_bad_response', false, 200);
    }
    next = { choices: [] };
    assertProviderError(await providerFailure(client.step(ask, tools)), 'model_bad_response', false, 200);
  });
});
