import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { z } from 'zod';
import { route, type RouteDef } from '../../src/http/route';
import { createLogger } from '../../src/logger';
import { startPrivateApp, type PrivateApp } from '../helpers/privateApp';

const probe = (method: RouteDef['spec']['method'], path: string, answer: string): RouteDef =>
  route(
    {
      method,
      path,
      operationId: `probe${answer}`,
      summary: 'probe',
      tags: ['Test'],
      auth: { kind: 'none' },
      ...(path.includes('{id}') ? { params: z.object({ id: z.string() }) } : {}),
      responses: {
        200: {
          description: 'which route answered',
          schema: z.object({ answer: z.string(), params: z.object({ id: z.string() }).nullable() }),
        },
      },
    },
    async ({ params }) => ({ body: { answer, params: params ?? null } }),
  );

// A parameter route listed first: the literal sibling must still take its own path (literal paths go first).
const ROUTES = [
  probe('get', '/test/routing/{id}', 'item'),
  probe('post', '/test/routing/{id}', 'item-post'),
  probe('get', '/test/routing/special', 'literal'),
];

describe('routing: a parameterless path answered without the router matches what the router answers', () => {
  let app: PrivateApp;
  const logged: Array<{ msg: string; route?: string; status?: number }> = [];
  before(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logged.push(JSON.parse(line));
        done();
      },
    });
    app = await startPrivateApp(ROUTES, { logger: createLogger('info', sink) });
  });
  after(async () => {
    await app?.close();
  });

  it('the exact literal path is the literal route, logged and measured by its route pattern', async () => {
    const res = await app.call('GET', '/test/routing/special');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.answer, 'literal');
    const line = logged.findLast((l) => l.msg === 'request' && l.route === '/test/routing/special');
    assert.ok(line, 'a request log line names the route pattern');
    assert.equal(line.status, 200);
  });

  it('another id is the parameter route, with its params', async () => {
    const res = await app.call('GET', '/test/routing/abc');
    assert.equal(res.body.answer, 'item');
    assert.deepEqual(res.body.params, { id: 'abc' });
  });

  it('HEAD of a literal GET route answers as GET does, without a body', async () => {
    const res = await app.call('HEAD', '/test/routing/special');
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
  });

  it('the literal path under a method only a parameter route has goes to that route', async () => {
    const res = await app.call('POST', '/test/routing/special', { body: {} });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.answer, 'item-post');
    assert.deepEqual(res.body.params, { id: 'special' });
  });

  it('the literal path under a method no route has answers 405 with every allowed method', async () => {
    const res = await app.call('DELETE', '/test/routing/special');
    assert.equal(res.status, 405);
    assert.equal(res.body.code, 'method_not_allowed');
    assert.deepEqual((res.headers.get('allow') ?? '').split(/,\s*/).sort(), ['GET', 'HEAD', 'POST']);
  });

  it('a trailing slash is answered as the router answers it: by the literal route', async () => {
    const res = await app.call('GET', '/test/routing/special/');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.answer, 'literal');
  });
});
