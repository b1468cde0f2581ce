import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWorkyardClient, followJob, retryAfterMs, retryingFetch } from '../../../clients/typescript/src';

/** A loopback server answering each request as `answer` says (a null text keeps the response open), recording what came. */
async function serve(answer: (req: IncomingMessage, body: string, n: number) => [number, Record<string, string>, string | null]) {
  const seen: Array<{ method: string; url: string; body: string }> = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, body });
      const [status, headers, text] = answer(req, body, seen.length);
      res.writeHead(status, headers);
      if (text === null) res.flushHeaders();
      else res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, seen, close };
}

describe('the TypeScript client helpers', () => {
  it('Retry-After in seconds or as an HTTP date, one second without it', () => {
    const at = (value?: string) => retryAfterMs(new Response(null, { status: 503, headers: value ? { 'retry-after': value } : {} }), 0);
    assert.equal(at('2'), 2_000);
    assert.equal(at(new Date(5_000).toUTCString()), 5_000);
    assert.equal(at(), 1_000);
  });

  it('a 503 and a 429 are sent again after their Retry-After, with the same body; other answers are returned at once', async () => {
    const server = await serve((_req, _body, n) =>
      n === 1 ? [503, { 'retry-after': '0' }, ''] : n === 2 ? [429, { 'retry-after': '0' }, ''] : [201, {}, 'made'],
    );
    try {
      const res = await retryingFetch(fetch, 3)(`${server.url}/x`, {
        method: 'POST',
        body: '{"a":1}',
        headers: { 'idempotency-key': 'k1' },
      });
      assert.equal(res.status, 201);
      assert.deepEqual(
        server.seen.map((s) => [s.method, s.body]),
        [
          ['POST', '{"a":1}'],
          ['POST', '{"a":1}'],
          ['POST', '{"a":1}'],
        ],
      );
      const bad = await retryingFetch(fetch, 3)(`${server.url}/y`);
      assert.equal(bad.status, 201);
      assert.equal(server.seen.length, 4);
    } finally {
      await server.close();
    }
  });

  it('gives up after its retries and returns the last answer', async () => {
    const server = await serve(() => [503, { 'retry-after': '0' }, '{"code":"temporal_unavailable"}']);
    try {
      const res = await retryingFetch(fetch, 2)(`${server.url}/x`);
      assert.equal(res.status, 503);
      assert.equal(server.seen.length, 3);
    } finally {
      await server.close();
    }
  });

  it('followJob gives up at its deadline when the event stream never ends', async () => {
    const server = await serve((req) => {
      if (req.url!.endsWith('/events')) return [200, { 'content-type': 'text/event-stream' }, null];
      return [200, { 'content-type': 'application/json' }, JSON.stringify({ id: 'quick:1', status: 'running' })];
    });
    try {
      const client = createWorkyardClient({ baseUrl: server.url, token: 'wys_test' });
      await assert.rejects(followJob(client, '/api/jobs/quick%3A1', { timeoutMs: 300, pollEveryMs: 10 }), /still running after 300 ms/);
    } finally {
      await server.close();
    }
  });

  it('followJob polls the job when its event stream cannot be read, until the job ends', async () => {
    const server = await serve((req, _body, n) => {
      if (req.url!.endsWith('/events')) return [404, {}, ''];
      const status = n < 4 ? 'running' : 'completed';
      return [
        200,
        { 'content-type': 'application/json' },
        JSON.stringify({ id: 'quick:1', status, result: status === 'completed' ? { ok: true } : null }),
      ];
    });
    try {
      const client = createWorkyardClient({ baseUrl: server.url, token: 'wys_test' });
      const job = await followJob(client, '/api/jobs/quick%3A1', { pollEveryMs: 10 });
      assert.equal(job.status, 'completed');
      assert.deepEqual(job.result, { ok: true });
      assert.equal(server.seen[0].url, '/api/jobs/quick%3A1/events');
      assert.ok(server.seen.slice(1).every((s) => s.url === '/api/jobs/quick%3A1'));
    } finally {
      await server.close();
    }
  });
});
