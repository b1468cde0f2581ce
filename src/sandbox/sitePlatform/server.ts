/**
 * The simulator's HTTP server (node:http, loopback only). Order per request: log → fault injection → OAuth, or the
 * Data API under an optional `/v2` or `/beta` prefix (auth → rate limit → scope → handler). Webhook events the
 * handler raised go to the deliverer once the answer is written, so a delivery never holds up the request.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../kit/readBody';
import type { WebhookDeliverer } from './deliveries';
import { FaultList, MALFORMED_BODY, type FaultSpec } from './faults';
import { platformError, type SimRequest, type SimResponse } from './http';
import { authorize, exchangeCode, revokeAuthorization } from './oauth';
import type { MinuteWindows } from './rateLimit';
import { dispatch } from './router';
import { dataApiRoutes } from './routes';
import { receiveUpload } from './routes/assets';
import { readUpload } from './upload';
import type { RequestLogEntry, SimState } from './state';

const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface RunningServer {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startServer(
  state: SimState,
  windows: MinuteWindows,
  faults: FaultList,
  webhooks: WebhookDeliverer,
  port: number,
): Promise<RunningServer> {
  const held = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    void serve(req, res).catch(() => {
      if (!res.headersSent) write(res, platformError(500, 'internal_error', 'An Internal Error occurred'));
      else res.destroy();
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const entry: RequestLogEntry = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.search.slice(1),
      status: 0,
      at: state.now(),
    };
    state.log.push(entry);
    res.on('finish', () => {
      entry.status = res.statusCode;
    });
    const body = await readBody(req, MAX_BODY_BYTES);
    const fault = faults.take(url.pathname);
    if (fault) return injectFault(res, fault);
    if (body === undefined) return write(res, platformError(413, 'payload_too_large', 'Request body too large'));
    const simReq: SimRequest = {
      method: entry.method,
      path: url.pathname.replace(/^\/(v2|beta)(?=\/)/, ''),
      query: url.searchParams,
      headers: req.headers,
      body,
      params: {},
    };
    let response: SimResponse;
    try {
      response = route(simReq);
    } catch (err) {
      state.events.length = 0; // a handler that threw raised nothing
      throw err;
    }
    const events = state.events.splice(0);
    if (events.length > 0) webhooks.releaseWhen(events, answered(res));
    write(res, response);
  }

  function route(req: SimRequest): SimResponse {
    if (req.method === 'GET' && req.path === '/oauth/authorize') return authorize(state, req);
    if (req.method === 'POST' && req.path === '/oauth/access_token') return exchangeCode(state, req);
    if (req.method === 'POST' && req.path === '/oauth/revoke_authorization') return revokeAuthorization(state, req);
    const upload = /^\/uploads\/([^/]+)$/.exec(req.path);
    if (req.method === 'POST' && upload) {
      const form = readUpload(req);
      return receiveUpload(state, upload[1], form.key, form.bytes);
    }
    return dispatch(dataApiRoutes, state, windows, req);
  }

  function injectFault(res: ServerResponse, fault: FaultSpec): void {
    if (fault.kind === '5xx') return write(res, platformError(fault.status ?? 500, 'internal_error', 'An Internal Error occurred'));
    if (fault.kind === 'malformed') return write(res, { status: 200, raw: MALFORMED_BODY });
    // 'timeout': never answer; the client gives up, and close() drops the socket.
    held.add(res);
    res.on('close', () => held.delete(res));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        held.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Settles once the answer is handed to the socket (or the client went away). */
function answered(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    res.once('finish', resolve);
    res.once('close', resolve);
  });
}

function write(res: ServerResponse, response: SimResponse): void {
  const payload = response.raw ?? (response.body === undefined || response.status === 204 ? '' : JSON.stringify(response.body));
  res.writeHead(response.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'x-request-id': randomUUID(),
    ...response.headers,
  });
  res.end(payload);
}
