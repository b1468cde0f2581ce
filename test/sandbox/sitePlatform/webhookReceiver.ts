import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  /** Wall-clock ms when the request body had arrived. */
  at: number;
}

/** A plain node:http endpoint on 127.0.0.1 that records each delivery byte-for-byte and answers scripted statuses. */
export interface Receiver {
  /** `http://127.0.0.1:<port>` — append any path. */
  base: string;
  received: Received[];
  /** Statuses to answer, one per request in arrival order; once used up, 200. 'hang' never answers. */
  script: Array<number | 'hang'>;
  /** Resolves when `count` requests have arrived (rejects after `ms`). */
  waitFor(count: number, ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const receiver = { received, script: [] as Array<number | 'hang'> } as Receiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers, raw: Buffer.concat(chunks), at: Date.now() });
      for (const wake of waiters.splice(0)) wake();
      const next = receiver.script.shift() ?? 200;
      if (next === 'hang') return;
      res.writeHead(next, { 'content-type': 'application/json' }).end(JSON.stringify({ answered: next }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.waitFor = (count, ms = 5_000) =>
    new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`receiver: ${received.length} of ${count} requests after ${ms} ms`)), ms);
      const check = () => {
        if (received.length >= count) {
          clearTimeout(deadline);
          resolve();
        } else waiters.push(check);
      };
      check();
    });
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}
