import assert from 'node:assert/strict';
import { assertError } from '../marketing/grounding/fixtures';
import { call, type CallResult } from './http';

// Checks every webhook endpoint registry answers alike (email webhooks, account webhook endpoints): webhookKit's routes.

/** The seven routes of the registry at `base`, for endpoint `id`: create, list, get, update, delete, test, deliveries. */
export const endpointRoutesOf = (base: string, id: string): Array<[string, string]> => [
  ['POST', base],
  ['GET', base],
  ['GET', `${base}/${id}`],
  ['PATCH', `${base}/${id}`],
  ['DELETE', `${base}/${id}`],
  ['POST', `${base}/${id}/test`],
  ['GET', `${base}/${id}/deliveries`],
];

/** A create's 201: a `whsec_` signing secret of 32 random bytes, and an enabled endpoint with `fields`. */
export function assertCreatedEndpoint(res: CallResult, fields: { url: string; events: string[]; description: string | null }): void {
  assert.equal(res.status, 201, res.text);
  assert.match(res.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(Buffer.from(res.body.secret.slice(6), 'base64').length, 32);
  assert.deepEqual(
    { object: res.body.object, url: res.body.url, events: res.body.events, description: res.body.description, enabled: res.body.enabled },
    { object: 'webhook_endpoint', ...fields, enabled: true },
  );
}

/** Every route of endpoint `id` (get, update, delete, test, deliveries) answers 404 webhook_endpoint_not_found to `token`. */
export async function assertEndpointNotFound(base: string, id: string, token: string): Promise<void> {
  assertError(await call('GET', `${base}/${id}`, { token }), 404, 'webhook_endpoint_not_found');
  assertError(await call('PATCH', `${base}/${id}`, { token, body: { enabled: false } }), 404, 'webhook_endpoint_not_found');
  assertError(await call('DELETE', `${base}/${id}`, { token }), 404, 'webhook_endpoint_not_found');
  assertError(await call('POST', `${base}/${id}/test`, { token }), 404, 'webhook_endpoint_not_found');
  assertError(await call('GET', `${base}/${id}/deliveries`, { token }), 404, 'webhook_endpoint_not_found');
}
