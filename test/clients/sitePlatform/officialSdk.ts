/**
 * Drives the site platform simulator with the platform's official SDK (`webflow-api`). The SDK parses answers with
 * validation switched off (unknown keys pass, missing ones are ignored), so every answer is also put back through the
 * SDK's own serializer in strict mode: an unknown key, a missing required key, a wrong type or an enum value the
 * reference lacks fails the test, as it would fail a real integration.
 */
import assert from 'node:assert/strict';
import { WebflowClient } from 'webflow-api';
import * as serializers from 'webflow-api/serialization';
import type { SitePlatformSimulator } from '../../../src/sandbox/sitePlatform';

export { serializers };

interface Serializer {
  json(value: unknown, opts?: Record<string, unknown>): { ok: true } | { ok: false; errors: Array<{ path: string[]; message: string }> };
}

const STRICT = {
  unrecognizedObjectKeys: 'fail',
  allowUnrecognizedEnumValues: false,
  allowUnrecognizedUnionMembers: false,
  skipValidation: false,
} as const;

/** The SDK client aimed at the simulator's `/v2`; no retries, so a refused request fails at once. */
export function sdkClient(sim: SitePlatformSimulator, accessToken: string): WebflowClient {
  const base = `${sim.baseUrl}/v2`;
  return new WebflowClient({
    accessToken,
    environment: { base, dataApi: base, contentDeliveryApi: base },
    maxRetries: 0,
    timeoutInSeconds: 5,
  });
}

/** Awaits the SDK call and checks its answer against the SDK's serializer in strict mode. */
export async function strictly<T>(what: string, schema: Serializer, call: Promise<T>): Promise<T> {
  const value = await call;
  const checked = schema.json(value, STRICT);
  if (!checked.ok) {
    assert.fail(
      `${what}: the SDK's serializer refuses the answer: ${checked.errors.map((e) => `${e.path.join('.') || '(root)'}: ${e.message}`).join('; ')}`,
    );
  }
  return value;
}
