/**
 * The simulator's HTTP server (node:http, loopback only). Paths are `/{shop}/admin/...`, so the shop URL template
 * is `${baseUrl}/{shop}`. Order per request: log → fault injection → shop lookup → OAuth or Admin API.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleAdmin } from './admin';
import { readBody } from '../kit/readBody';
import { FaultList, MALFORMED_BODY, type FaultSpec } from './faults';
import { json, notFound, type SimRequest, type SimResponse } from './http';
import { authorize, exchangeCode } from './oauth';
import { LeakyBuckets, THROTTLED_MESSAGE } from './rateLimit';
import type { RequestLogEntry, SimState } from './state';

const MAX_BODY_BYTES = 2 * 1024 * 1024;

export interface ServerOptions {
  port: number;
  timeoutHoldMs: number;
}

export interface RunningServer {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startServer(
  state: SimState,
  buckets: LeakyBuckets,
  faults: FaultList,
  options: ServerOptions,
): Promise<RunningServer> {
  const held = new Set<NodeJS.Timeout>();
  let baseUrl = '';
  const server: Server = createServer((req, res) => {
    void serve(req, res).catch(() => {
      if (!res.headersSent) write(res, json(500, { errors: 'Internal Server Error' }));
      else res.destroy();
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const entry: RequestLogEntry = { method: req.method ?? 'GET', path: url.pathname, query: url.search.slice(1), status: 0 };
    state.log.push(entry);
    res.on('finish', () => {
      entry.status = res.statusCode;
    });
    const body = await readBody(req, MAX_BODY_BYTES);
    const fault = faults.take(url.pathname);
    if (fault) return injectFault(res, fault);
    if (body === undefined) return write(res, json(413, { errors: 'Request Entity Too Large' }));
    const match = /^\/([^/]+)(\/.*)?$/.exec(url.pathname);
    const shop = match ? state.shops.get(decodeURIComponent(match[1])) : undefined;
    if (!match || !shop) return write(res, notFound());
    const simReq: SimRequest = {
      method: entry.method,
      domain: shop.info.myshopify_domain,
      path: match[2] ?? '/',
      query: url.searchParams,
      headers: req.headers,
      body,
      baseUrl,
    };
    write(res, route(simReq));
  }

  function route(req: SimRequest): SimResponse {
    const shop = state.shops.get(req.domain)!;
    if (req.method === 'GET' && req.path === '/admin/oauth/authorize') return authorize(state, req);
    if (req.method === 'POST' && req.path === '/admin/oauth/access_token') return exchangeCode(state, req);
    if (req.path.startsWith('/admin/api/')) return handleAdmin(state, buckets, shop, req);
    return notFound();
  }

  function injectFault(res: ServerResponse, fault: FaultSpec): void {
    if (fault.kind === '5xx') return write(res, json(fault.status ?? 503, { errors: 'Service Unavailable' }));
    if (fault.kind === 'malformed') return write(res, { status: 200, raw: MALFORMED_BODY });
    if (fault.kind === '429') {
      return write(res, json(429, { errors: THROTTLED_MESSAGE }, { 'retry-after': String(fault.retryAfter ?? 2) }));
    }
    // 'timeout': hold the request past the client's timeout; stop() drops held requests.
    const timer = setTimeout(() => {
      held.delete(timer);
      if (!res.destroyed) write(res, json(504, { errors: 'Gateway Timeout' }));
    }, fault.holdMs ?? options.timeoutHoldMs);
    held.add(timer);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of held) clearTimeout(timer);
        held.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function write(res: ServerResponse, response: SimResponse): void {
  const payload = response.raw ?? (response.body === undefined ? '' : JSON.stringify(response.body));
  res.writeHead(response.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'x-commerce-api-version': '2025-04',
    'x-request-id': randomUUID(),
    ...response.headers,
  });
  res.end(payload);
}
