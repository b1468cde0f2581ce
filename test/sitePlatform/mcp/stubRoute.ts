import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

export interface StubRoute {
  baseUrl: string;
  seen: SeenRequest[];
  /** The next answer; defaults to 200 { ok: true }. */
  answer: { status: number; body: unknown };
  close(): Promise<void>;
}

/** A stand-in for the agent operation route on loopback: records each request and answers what the test sets. */
export async function startStubRoute(): Promise<StubRoute> {
  const stub: StubRoute = { baseUrl: '', seen: [], answer: { status: 200, body: { ok: true } }, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const raw = Buffer.concat(chunks).toString('utf8');
      stub.seen.push({
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body: raw ? JSON.parse(raw) : undefined,
      });
      res.writeHead(stub.answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(stub.answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return stub;
}
