import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { ApiError } from '../../src/http/errors';
import { commerceErrors } from '../../src/clients/commerce/errors';
import { sitePlatformErrors } from '../../src/clients/sitePlatform/errors';
import { ProviderError, statusError, unreachableError } from '../../src/clients/providers/errors';
import { toActivityFailure, withFailureMapping } from '../../src/temporal/activityFailure';

function asFailure(err: unknown): ApplicationFailure {
  const mapped = toActivityFailure(err);
  assert.ok(mapped instanceof ApplicationFailure, 'an ApplicationFailure');
  return mapped;
}

describe('activity failure mapping', () => {
  it('a coded 4xx ApiError fails at once: type is its code, details carry its status', () => {
    const failure = asFailure(new ApiError(404, 'content_not_found', 'content item not found'));
    assert.deepEqual(
      [failure.type, failure.message, failure.nonRetryable, failure.details],
      ['content_not_found', 'content item not found', true, [{ status: 404 }]],
    );
  });

  it('a 5xx ApiError is retried', () => {
    const failure = asFailure(new ApiError(503, 'commerce_unavailable', 'down'));
    assert.deepEqual([failure.type, failure.nonRetryable, failure.details], ['commerce_unavailable', false, [{ status: 503 }]]);
  });

  it('a setup error of the service (not configured, misconfigured, unreadable secret, 501) fails at once', () => {
    for (const err of [
      new ApiError(503, 'commerce_not_configured', 'x'),
      new ApiError(503, 'commerce_token_unreadable', 'x'),
      new ApiError(500, 'platform_client_misconfigured', 'x'),
      new ApiError(501, 'provisioning_not_implemented', 'x'),
    ])
      assert.equal(asFailure(err).nonRetryable, true, err.code);
  });

  it('a platform refusal (an upstream 4xx behind a 502) fails at once', () => {
    assert.equal(asFailure(commerceErrors.unauthorized('GET /orders.json', 401)).nonRetryable, true);
    assert.equal(asFailure(commerceErrors.rejected('GET /orders.json', 422, 'bad')).nonRetryable, true);
    assert.equal(asFailure(sitePlatformErrors.fromResponse('GET /sites', 401, { code: 'not_authorized' })).nonRetryable, true);
    assert.equal(asFailure(sitePlatformErrors.fromResponse('GET /sites', 400, { code: 'validation_error' })).nonRetryable, true);
  });

  it('platform outages, malformed answers and timeouts are retried', () => {
    assert.equal(asFailure(commerceErrors.upstream5xx('GET /orders.json', 500)).nonRetryable, false);
    assert.equal(asFailure(commerceErrors.unreachable('GET /orders.json', 'timeout')).nonRetryable, false);
    assert.equal(asFailure(commerceErrors.malformed('GET /orders.json', 200)).nonRetryable, false);
    assert.equal(asFailure(sitePlatformErrors.timeout('GET /sites', 10_000)).nonRetryable, false);
    assert.equal(asFailure(sitePlatformErrors.network('GET /sites')).nonRetryable, false);
    assert.equal(asFailure(sitePlatformErrors.fromResponse('GET /sites', 503, {})).nonRetryable, false);
  });

  it("a rate limit is retried after the platform's Retry-After", () => {
    const commerce = asFailure(commerceErrors.rateLimited('GET /orders.json', 7));
    assert.deepEqual([commerce.type, commerce.nonRetryable, commerce.nextRetryDelay], ['commerce_rate_limited', false, '7 seconds']);
    const site = asFailure(sitePlatformErrors.rateLimitedRemotely('GET /sites', 12));
    assert.deepEqual([site.type, site.nonRetryable, site.nextRetryDelay], ['rate_limited', false, '12 seconds']);
  });

  it('a provider error keeps its own retryable flag and Retry-After', () => {
    const limited = asFailure(statusError('search', 'the search API', 429, '9'));
    assert.deepEqual([limited.type, limited.nonRetryable, limited.nextRetryDelay], ['search_rate_limited', false, '9 seconds']);
    assert.equal(asFailure(unreachableError('model', 'the chat model', true)).nonRetryable, false);
    const refused = asFailure(new ProviderError('page', 'page_too_large', 'too large', false));
    assert.deepEqual([refused.type, refused.nonRetryable, refused.nextRetryDelay], ['page_too_large', true, undefined]);
  });

  it('anything else is rethrown unchanged, so Temporal retries it', () => {
    const plain = new Error('connection reset');
    assert.equal(toActivityFailure(plain), plain);
    const already = ApplicationFailure.nonRetryable('x', 'some_code');
    assert.equal(toActivityFailure(already), already);
  });

  it('withFailureMapping maps what every activity of the object throws and passes results through', async () => {
    const activities = withFailureMapping({
      ok: async (n: number) => n + 1,
      gone: async () => {
        throw new ApiError(404, 'item_not_found', 'item not found');
      },
    });
    assert.equal(await activities.ok(1), 2);
    await assert.rejects(
      activities.gone(),
      (err: unknown) => err instanceof ApplicationFailure && err.type === 'item_not_found' && err.nonRetryable,
    );
  });
});
