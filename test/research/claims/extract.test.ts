import assert from 'node:assert/strict';
import { createChatClient, type ChatClient } from '../../../src/clients/providers/chatCompletions';
import { ProviderError } from '../../../src/clients/providers/errors';
import { readableText } from '../../../src/clients/providers/readableText';
import { extractClaims } from '../../../src/research/claims/extract';
import { quoteInPassage } from '../../../src/research/claims/quotes';
import { articleHtml } from '../../../src/sandbox/pages';
import { FABRICATED_QUOTE, startModelSimulator, type ModelSimulator } from '../../../src/sandbox/model';

const { text } = readableText(articleHtml({ title: 'Heat pumps in numbers', topic: 'Heat pumps', paragraphs: 6 }), 'https://example.org/a');
const input = { topic: 'Heat pumps', keyword: 'heat pump costs', text };

describe('claim extraction', () => {
  let sim: ModelSimulator;
  let chat: ChatClient;
  before(async () => {
    sim = await startModelSimulator();
    chat = createChatClient({
      MODEL_API_URL: sim.url,
      MODEL_API_KEY: sim.apiKey,
      MODEL_CHAT_MODEL: 'gpt-4o-mini',
      FETCH_TIMEOUT_MS: 5000,
    })!;
  });
  afterEach(() => sim.fabricateQuotes(false));
  after(() => sim.stop());

  it('with a model key the model extracts claims with verbatim quotes (extraction model, confidence 0.6–0.9)', async () => {
    const result = await extractClaims(chat, input);
    assert.equal(result.extraction, 'model');
    assert.ok(result.claims.length > 0);
    for (const claim of result.claims) {
      assert.ok(quoteInPassage(claim.quote, text), `quote not in the text: ${claim.quote}`);
      assert.ok(claim.confidence_score >= 0.6 && claim.confidence_score <= 0.9, String(claim.confidence_score));
      assert.ok(claim.claim.length > 0);
    }
  });

  it('asks in JSON mode with the topic, the keyword and the source text in the prompt', async () => {
    await extractClaims(chat, { ...input, maxClaims: 3 });
    const request = sim.requests.at(-1)!;
    assert.deepEqual(request.response_format, { type: 'json_object' });
    assert.equal(request.temperature, 0);
    const user = request.messages.find((m) => m.role === 'user')!.content;
    assert.match(user, /^Topic: Heat pumps$/m);
    assert.match(user, /^Keyword: heat pump costs$/m);
    assert.match(user, /^Maximum claims: 3$/m);
    assert.ok(user.includes(text));
    assert.match(request.messages[0].content, /VERBATIM/);
  });

  it('maxClaims bounds the claims', async () => {
    assert.equal((await extractClaims(chat, { ...input, maxClaims: 2 })).claims.length, 2);
  });

  it('without a model key the fallback extractor runs: extraction fallback, confidence_score 0', async () => {
    const calls = sim.calls;
    const result = await extractClaims(null, input);
    assert.equal(result.extraction, 'fallback');
    assert.ok(result.claims.length > 0);
    for (const claim of result.claims) {
      assert.equal(claim.confidence_score, 0);
      assert.ok(quoteInPassage(claim.quote, text));
    }
    assert.equal(sim.calls, calls, 'no model call');
  });

  it('a fabricated quote is returned as the model gave it, and quoteInPassage says false for it', async () => {
    sim.fabricateQuotes(true);
    const result = await extractClaims(chat, input);
    const fabricated = result.claims.find((c) => c.quote === FABRICATED_QUOTE);
    assert.ok(fabricated, 'the fabricated claim comes back');
    assert.equal(quoteInPassage(fabricated.quote, text), false);
    assert.ok(result.claims.filter((c) => c !== fabricated).every((c) => quoteInPassage(c.quote, text)));
  });

  it('a malformed model answer is model_bad_response', async () => {
    sim.malformedNext(1);
    await assert.rejects(
      extractClaims(chat, input),
      (err) => err instanceof ProviderError && err.code === 'model_bad_response' && !err.retryable,
    );
    sim.answerNext('{"findings": []}');
    await assert.rejects(extractClaims(chat, input), (err) => err instanceof ProviderError && err.code === 'model_bad_response');
    sim.answerNext('{"claims": [{"claim": 1}, {"quote": null}]}');
    await assert.rejects(extractClaims(chat, input), (err) => err instanceof ProviderError && err.code === 'model_bad_response');
  });

  it('reads answers in a Markdown fence, confidence as a percentage, and keeps the first claim of each quote', async () => {
    const quote = text.split('. ')[0] + '.';
    sim.answerNext(
      `\`\`\`json\n${JSON.stringify({
        claims: [
          { claim: 'Adoption grew.', quote, confidence: 85 },
          { claim: 'Duplicate.', quote, confidence: 0.2 },
          { claim: 'No confidence given.', quote: 'Installers report' },
          { claim: '', quote: 'dropped: empty claim' },
        ],
      })}\n\`\`\``,
    );
    const result = await extractClaims(chat, input);
    assert.deepEqual(result.claims, [
      { claim: 'Adoption grew.', quote, confidence_score: 0.85 },
      { claim: 'No confidence given.', quote: 'Installers report', confidence_score: 0.5 },
    ]);
  });

  it('empty text asks the model nothing and gives no claims', async () => {
    const calls = sim.calls;
    assert.deepEqual(await extractClaims(chat, { ...input, text: '  ' }), { extraction: 'model', claims: [] });
    assert.equal(sim.calls, calls);
  });

  it('a model failure surfaces as the client\u2019s coded error (429 → model_rate_limited, retryable)', async () => {
    sim.failNext(1, 429);
    await assert.rejects(
      extractClaims(chat, input),
      (err) => err instanceof ProviderError && err.code === 'model_rate_limited' && err.retryable,
    );
  });
});
