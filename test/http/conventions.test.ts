import assert from 'node:assert/strict';
import type { Context } from 'koa';
import { apiRoutes } from '../../src/app/routes';
import { routeAuth } from '../../src/auth/routeAuth';
import { ApiError, errorRenderer } from '../../src/http/errors';
import { buildOpenApi } from '../../src/http/openapi';
import { createLogger } from '../../src/logger';

// The conventions of docs/conventions.md, checked over the whole OpenAPI document (and so over every route).
const doc = buildOpenApi(
  apiRoutes(() => []),
  routeAuth.docs,
) as unknown as { paths: Record<string, Record<string, { tags: string[]; responses: Record<string, { headers?: object }> }>> };
const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
);
const documents = (response: { headers?: object } | undefined, header: string) =>
  Object.keys(response?.headers ?? {}).some((h) => h.toLowerCase() === header.toLowerCase());

/** The 202s the spec fixes without a resource to point at, and why. */
const ACCEPTED_WITHOUT_LOCATION: Record<string, string> = {
  'POST /mcp': 'MCP Streamable HTTP answers a notification 202 with no body: there is nothing to poll',
  'POST /v1/email/batch': 'a batch is no resource of its own: each of its messages is at /v1/email/emails/{id}, listed in the body',
};

describe('API conventions over the OpenAPI document', () => {
  it('every 202 documents Location (where to poll what was accepted)', () => {
    const missing = operations.filter(({ op }) => op.responses['202'] && !documents(op.responses['202'], 'Location'));
    assert.deepEqual(
      missing.map((o) => o.name).filter((name) => !(name in ACCEPTED_WITHOUT_LOCATION)),
      [],
    );
    for (const name of Object.keys(ACCEPTED_WITHOUT_LOCATION))
      assert.ok(
        missing.some((o) => o.name === name),
        `${name} is no exception any more`,
      );
  });

  it('every 429 and 503 documents Retry-After', () => {
    const missing = operations.flatMap(({ name, op }) =>
      ['429', '503'].filter((status) => op.responses[status] && !documents(op.responses[status], 'Retry-After')).map((s) => `${name} ${s}`),
    );
    assert.deepEqual(missing, []);
  });

  it('one spelling per tag', () => {
    const tags = [...new Set(operations.flatMap(({ op }) => op.tags))];
    const spelt = new Map<string, string[]>();
    for (const tag of tags) {
      const key = tag.toLowerCase().replace(/[^a-z0-9]/g, '');
      spelt.set(key, [...(spelt.get(key) ?? []), tag]);
    }
    assert.deepEqual(
      [...spelt.values()].filter((spellings) => spellings.length > 1),
      [],
    );
  });

  it('every 429 and 503 answer carries Retry-After, the error’s own or the default', () => {
    const render = errorRenderer(createLogger('silent'));
    const answer = (err: ApiError) => {
      const headers: Record<string, string> = {};
      const ctx = {
        state: {},
        method: 'GET',
        status: 0,
        body: undefined,
        set: (h: string | Record<string, string>, v?: string) => {
          if (typeof h === 'string') headers[h] = v!;
          else Object.assign(headers, h);
        },
      } as unknown as Context;
      render(ctx, err);
      return headers['Retry-After'];
    };
    assert.equal(answer(new ApiError(503, 'provider_unavailable', 'down')), '5');
    assert.equal(answer(new ApiError(429, 'rate_limited', 'slow down')), '1');
    assert.equal(answer(new ApiError(503, 'temporal_unavailable', 'down', { retryAfterSeconds: 2 })), '2');
    assert.equal(answer(new ApiError(429, 'rate_limited', 'slow down', { headers: { 'Retry-After': '7' } })), '7');
    assert.equal(answer(new ApiError(404, 'not_found', 'no')), undefined);
  });
});
