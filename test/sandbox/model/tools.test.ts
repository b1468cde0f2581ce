import assert from 'node:assert/strict';
import { startModelSimulator, type ModelSimulator } from '../../../src/sandbox/model';

const listPages = {
  type: 'function',
  function: { name: 'platform_pages_list', description: 'List pages.', parameters: { type: 'object', properties: {} } },
};
const call = (id: string, name = 'platform_pages_list') => ({ id, type: 'function', function: { name, arguments: '{}' } });

describe('model simulator: the tool-calling protocol', () => {
  let sim: ModelSimulator;
  const post = async (body: Record<string, unknown>) => {
    const res = await fetch(`${sim.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sim.apiKey}` },
      body: JSON.stringify({ model: 'gpt-4o-mini', ...body }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const user = (content: string) => [{ role: 'user', content }];
  /** The 400 a request gets: OpenAI's error body, with the parameter at fault. */
  const refused = async (body: Record<string, unknown>, param: string, message: RegExp) => {
    const res = await post(body);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error.type, 'invalid_request_error');
    assert.equal(res.body.error.param, param);
    assert.match(res.body.error.message, message);
  };
  before(async () => {
    sim = await startModelSimulator();
  });
  after(() => sim.stop());

  it('a scripted call answers finish_reason tool_calls, content null, a call_ id and the arguments as JSON text, with usage', async () => {
    const res = await post({ messages: user('/tool platform_pages_list {"limit": 3}'), tools: [listPages], tool_choice: 'auto' });
    assert.equal(res.status, 200);
    assert.equal(res.body.object, 'chat.completion');
    const [choice] = res.body.choices;
    assert.equal(choice.finish_reason, 'tool_calls');
    assert.equal(choice.message.role, 'assistant');
    assert.equal(choice.message.content, null);
    assert.equal(choice.message.tool_calls.length, 1);
    const [tc] = choice.message.tool_calls;
    assert.match(tc.id, /^call_0_[0-9a-f]{12}$/);
    assert.equal(tc.type, 'function');
    assert.deepEqual(tc.function, { name: 'platform_pages_list', arguments: '{"limit":3}' });
    assert.ok(res.body.usage.prompt_tokens > 0 && res.body.usage.completion_tokens > 0);
    assert.equal(res.body.usage.total_tokens, res.body.usage.prompt_tokens + res.body.usage.completion_tokens);
  });

  it('an answered call and null assistant content are a valid conversation; the final text quotes the answer', async () => {
    const messages = [
      ...user('/tool platform_pages_list {}'),
      { role: 'assistant', content: null, tool_calls: [call('call_a')] },
      { role: 'tool', tool_call_id: 'call_a', content: 'no pages' },
    ];
    // Answered by id: call_a is not the scripted id, so the scripted call is still pending.
    const pending = await post({ messages, tools: [listPages] });
    assert.equal(pending.status, 200, JSON.stringify(pending.body));
    assert.equal(pending.body.choices[0].finish_reason, 'tool_calls');
    const id = pending.body.choices[0].message.tool_calls[0].id;
    messages[1] = { role: 'assistant', content: null, tool_calls: [call(id)] };
    messages[2] = { role: 'tool', tool_call_id: id, content: 'no pages' };
    const done = await post({ messages, tools: [listPages] });
    assert.equal(done.body.choices[0].finish_reason, 'stop');
    assert.equal(done.body.choices[0].message.content, 'Done.\nplatform_pages_list: no pages');
  });

  it("tool_choice 'none' answers text even with a scripted call", async () => {
    const res = await post({ messages: user('/tool platform_pages_list {}\n/say Not now.'), tools: [listPages], tool_choice: 'none' });
    assert.equal(res.body.choices[0].finish_reason, 'stop');
    assert.equal(res.body.choices[0].message.content, 'Not now.');
  });

  it('malformedNext answers a tool call without an id or a name; failNext still fails tool requests', async () => {
    sim.malformedNext(1);
    const broken = await post({ messages: user('/tool platform_pages_list {}'), tools: [listPages] });
    assert.equal(broken.status, 200);
    assert.equal(broken.body.choices[0].message.tool_calls[0].id, undefined);
    sim.failNext(1, 503);
    assert.equal((await post({ messages: user('hi'), tools: [listPages] })).status, 503);
  });

  describe('refuses what OpenAI refuses (400 with its error body)', () => {
    it('tools that are not a non-empty array of at most 128', async () => {
      await refused({ messages: user('hi'), tools: listPages }, 'tools', /expected an array, but got an object/);
      await refused({ messages: user('hi'), tools: [] }, 'tools', /empty array/);
      const many = Array.from({ length: 129 }, (_, i) => ({ type: 'function', function: { name: `tool_${i}` } }));
      await refused({ messages: user('hi'), tools: many }, 'tools', /maximum length 128, but got an array with length 129/);
    });

    it('a tool that is not a function', async () => {
      await refused(
        { messages: user('hi'), tools: [{ type: 'web_search', function: listPages.function }] },
        'tools[0].type',
        /Supported values are: 'function'/,
      );
      await refused({ messages: user('hi'), tools: [{ type: 'function' }] }, 'tools[0].function', /Missing required parameter/);
    });

    it('a function name that is missing, empty, longer than 64 or outside [a-zA-Z0-9_-]', async () => {
      const named = (name: unknown) => ({ messages: user('hi'), tools: [listPages, { type: 'function', function: { name } }] });
      await refused(named(undefined), 'tools[1].function.name', /Missing required parameter/);
      await refused(named(''), 'tools[1].function.name', /empty string/);
      await refused(named('a'.repeat(65)), 'tools[1].function.name', /maximum length 64, but got a string with length 65/);
      await refused(named('platform.pages'), 'tools[1].function.name', /does not match pattern/);
      assert.equal((await post(named('a'.repeat(64)))).status, 200);
    });

    it('parameters that are not an object schema, a description that is not text', async () => {
      const fn = (extra: Record<string, unknown>) => ({
        messages: user('hi'),
        tools: [{ type: 'function', function: { name: 'x', ...extra } }],
      });
      await refused(fn({ parameters: 'none' }), 'tools[0].function.parameters', /expected an object, but got a string/);
      await refused(fn({ parameters: { type: 'string' } }), 'tools[0].function.parameters', /must be a JSON Schema of 'type: "object"'/);
      await refused(fn({ description: 7 }), 'tools[0].function.description', /expected a string/);
      assert.equal((await post(fn({ parameters: {} }))).status, 200);
    });

    it('tool_choice without tools, or not one of none/auto/required/an offered function', async () => {
      await refused({ messages: user('hi'), tool_choice: 'auto' }, 'tool_choice', /only allowed when 'tools' are specified/);
      await refused({ messages: user('hi'), tools: [listPages], tool_choice: 'always' }, 'tool_choice', /'none', 'auto', and 'required'/);
      const forced = (name: string) => ({ type: 'function', function: { name } });
      await refused(
        { messages: user('hi'), tools: [listPages], tool_choice: forced('other') },
        'tool_choice',
        /not among the provided tools/,
      );
      assert.equal((await post({ messages: user('hi'), tools: [listPages], tool_choice: forced('platform_pages_list') })).status, 200);
    });

    it('a tool message that answers no preceding tool call', async () => {
      await refused(
        { messages: [...user('hi'), { role: 'tool', tool_call_id: 'call_1', content: 'x' }], tools: [listPages] },
        'messages.[1].role',
        /must be a response to a preceeding message with 'tool_calls'/,
      );
      const answersOther = [
        ...user('hi'),
        { role: 'assistant', content: null, tool_calls: [call('call_1')] },
        { role: 'tool', tool_call_id: 'call_2', content: 'x' },
      ];
      await refused({ messages: answersOther, tools: [listPages] }, 'messages.[2].tool_call_id', /'call_2' not found in 'tool_calls'/);
      const noId = [...user('hi'), { role: 'assistant', content: null, tool_calls: [call('call_1')] }, { role: 'tool', content: 'x' }];
      await refused({ messages: noId, tools: [listPages] }, 'messages[2].tool_call_id', /Missing required parameter/);
    });

    it('a tool call left unanswered before the next message', async () => {
      const messages = [
        ...user('hi'),
        { role: 'assistant', content: null, tool_calls: [call('call_1'), call('call_2')] },
        { role: 'tool', tool_call_id: 'call_1', content: 'x' },
        { role: 'user', content: 'and?' },
      ];
      await refused({ messages, tools: [listPages] }, 'messages.[1].role', /did not have response messages: call_2$/);
      await refused({ messages: messages.slice(0, 3), tools: [listPages] }, 'messages.[1].role', /call_2$/);
    });

    it('an assistant tool call that is not {id, type function, function {name, arguments}}', async () => {
      const withCalls = (tool_calls: unknown) => ({
        messages: [...user('hi'), { role: 'assistant', content: null, tool_calls }],
        tools: [listPages],
      });
      await refused(withCalls([]), 'messages[1].tool_calls', /empty array/);
      await refused(withCalls([{ type: 'function', function: { name: 'x', arguments: '{}' } }]), 'messages[1].tool_calls[0].id', /Missing/);
      await refused(withCalls([{ ...call('c'), function: { name: 'x' } }]), 'messages[1].tool_calls[0].function.arguments', /Missing/);
    });

    it('null content on a message that calls no tools, and an unknown role', async () => {
      await refused({ messages: [...user('hi'), { role: 'assistant', content: null }] }, 'messages', /string 'content'/);
      await refused({ messages: [{ role: 'robot', content: 'hi' }] }, 'messages[0].role', /Invalid value: 'robot'/);
    });
  });
});
