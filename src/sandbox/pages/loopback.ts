import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../kit/readBody';

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Resolves after `ms`, or at once when the server stops (handlers then find their response destroyed). */
  wait(ms: number): Promise<void>;
  /** Closes the listener and every open connection, and ends pending waits. */
  stop(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, server: LoopbackServer) => Promise<void> | void;

/** A real HTTP server on 127.0.0.1 and a free port, for the research simulators. */
export async function startLoopbackServer(handler: Handler): Promise<LoopbackServer> {
  const waits = new Map<NodeJS.Timeout, () => void>();
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res, loopback)).catch(() => {
      if (!res.headersSent && !res.destroyed) sendJson(res, 500, { error: 'simulator failure' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const loopback: LoopbackServer = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    wait: (ms) =>
      new Promise<void>((resolve) => {
        if (ms <= 0) return resolve();
        const timer = setTimeout(() => {
          waits.delete(timer);
          resolve();
        }, ms);
        waits.set(timer, resolve);
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const [timer, resolveWait] of waits) {
          clearTimeout(timer);
          resolveWait();
        }
        waits.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return loopback;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendRaw(res, status, JSON.stringify(body), { 'content-type': 'application/json; charset=utf-8', ...headers });
}

export function sendRaw(res: ServerResponse, status: number, payload: string | Buffer, headers: Record<string, string>): void {
  if (res.destroyed) return;
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(payload)) });
  res.end(payload);
}

/** The request body as text, or undefined past `maxBytes`. */
export async function readText(req: IncomingMessage, maxBytes = 8 * 1024 * 1024): Promise<string | undefined> {
  return (await readBody(req, maxBytes))?.toString('utf8');
}

/** Counts down armed failures: `take()` answers the status of the next failure, if one is armed. */
export class FailureQueue {
  private remaining = 0;
  private status = 0;

  arm(times: number, status: number): void {
    this.remaining = Math.max(0, Math.floor(times));
    this.status = status;
  }

  take(): number | undefined {
    if (this.remaining <= 0) return undefined;
    this.remaining -= 1;
    return this.status;
  }
}
