import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { createApiServer } from '../../src/app/server';
import { harness } from '../helpers/harness';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Writes `request` on a raw socket (no client library trims or refuses it) and reads the answer until the server closes. */
function rawRequest(port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      const bodyText = rest.join('\r\n\r\n');
      let body: unknown;
      try {
        body = JSON.parse(bodyText);
      } catch {
        body = bodyText;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.end(request);
  });
}

function assertJsonError(res: RawResponse, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res));
  assert.match(res.headers['content-type'] ?? '', /^application\/json/, JSON.stringify(res));
  assert.equal(res.body.code, code, JSON.stringify(res));
  assert.equal(res.body.status, status);
  assert.equal(typeof res.body.message, 'string');
  assert.equal(res.body.request_id, res.headers['x-request-id']);
  assert.equal(res.headers.connection, 'close');
}

/** What Node's HTTP parser refuses never reaches Koa: the API server answers it with the usual JSON error body. */
describe('a request the HTTP parser refuses answers the usual JSON error, not an empty body', () => {
  let server: Server;
  let port: number;
  before(async () => {
    server = createApiServer(harness().deps).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('a URL over the header limit (20 KB) is 431 request_header_fields_too_large', async () => {
    const res = await rawRequest(port, `GET /healthz?pad=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    assertJsonError(res, 431, 'request_header_fields_too_large');
  });

  it('a header over the header limit (20 KB) is 431 request_header_fields_too_large', async () => {
    const res = await rawRequest(port, `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'b'.repeat(20_000)}\r\n\r\n`);
    assertJsonError(res, 431, 'request_header_fields_too_large');
  });

  it('bytes that are not HTTP/1.1 are 400 bad_request', async () => {
    assertJsonError(await rawRequest(port, 'NOT AN HTTP REQUEST\r\n\r\n'), 400, 'bad_request');
  });

  it('the server goes on answering well-formed requests', async () => {
    const res = await rawRequest(port, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    assert.equal(res.status, 200, JSON.stringify(res));
  });
});
