import assert from 'node:assert/strict';
import { z } from 'zod';
import { route, type RouteDef } from '../../src/http/route';
import { startPrivateApp, type PrivateApp } from '../helpers/privateApp';

const thing = z.object({ id: z.string(), count: z.number().int() });

// Handlers typed loosely on purpose: each answers what its spec does not declare, as a bug would at run time.
const departing = (path: string, body: unknown, status = 200): RouteDef =>
  route(
    {
      method: 'get',
      path,
      operationId: `conformanceProbe${path.split('/').pop()}`,
      summary: 'probe',
      tags: ['Test'],
      auth: { kind: 'none' },
      responses: { 200: { description: 'a thing', schema: thing } },
    },
    (async () => ({ status, body })) as never,
  );

describe('conformance of answers to /openapi.json (every test through test/helpers/http.ts)', () => {
  let app: PrivateApp;
  const previous = process.env.CONFORMANCE;
  before(async () => {
    process.env.CONFORMANCE = 'fail';
    app = await startPrivateApp([
      departing('/test/conformance/ok', { id: 'a', count: 1 }),
      departing('/test/conformance/extra', { id: 'a', count: 1, secret: 'x' }),
      departing('/test/conformance/missing', { id: 'a' }),
      departing('/test/conformance/mistyped', { id: 'a', count: '1' }),
      departing('/test/conformance/status', { id: 'a', count: 1 }, 201),
    ]);
  });
  after(async () => {
    if (previous === undefined) delete process.env.CONFORMANCE;
    else process.env.CONFORMANCE = previous;
    await app?.close();
  });

  it('a body that matches its schema passes', async () => {
    assert.equal((await app.call('GET', '/test/conformance/ok')).status, 200);
  });

  it('a field the schema does not declare fails the test that got it', async () => {
    await assert.rejects(app.call('GET', '/test/conformance/extra'), /must NOT have additional properties.*secret/);
  });

  it('a missing field fails', async () => {
    await assert.rejects(app.call('GET', '/test/conformance/missing'), /must have required property 'count'/);
  });

  it('a mistyped field fails', async () => {
    await assert.rejects(app.call('GET', '/test/conformance/mistyped'), /\/count must be integer/);
  });

  it('a 2xx status the operation does not list fails', async () => {
    await assert.rejects(app.call('GET', '/test/conformance/status'), /does not list 201/);
  });
});
