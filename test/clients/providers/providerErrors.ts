import assert from 'node:assert/strict';
import { ProviderError } from '../../../src/clients/providers/errors';

/** The ProviderError a call rejects with (any other outcome fails the test). */
export async function providerFailure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ProviderError, `expected a ProviderError, got ${err}`);
    return err;
  }
  assert.fail('expected a rejection');
}

export function assertProviderError(err: ProviderError, code: string, retryable: boolean, upstreamStatus?: number) {
  assert.equal(err.code, code, err.message);
  assert.equal(err.retryable, retryable, `${code} retryable`);
  if (upstreamStatus !== undefined) assert.equal(err.upstreamStatus, upstreamStatus);
}

/** Keys never reach an error: not its message, not any of its properties, not its stack. */
export function assertKeyAbsent(err: Error, key: string) {
  for (const text of [err.message, err.stack ?? '', JSON.stringify(err), String(err)]) {
    assert.ok(!text.includes(key), `the key leaked into: ${text}`);
  }
}

/** A loopback URL on which nothing listens. */
export const CLOSED_PORT_URL = 'http://127.0.0.1:9/unreachable';
