import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

/** A loopback endpoint that records each delivery byte-for-byte and answers the scripted statuses in turn. */
export interface Receiver {
  url: string;
  received: Received[];
  /** Statuses to answer, one per request; once used up, 200. 'hang' never answers. */
  script: Array<number | 'hang'>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const receiver = { received, script: [] as Array<number | 'hang'> } as Receiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      const next = receiver.script.shift() ?? 200;
      if (next === 'hang') return;
      res.writeHead(next).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/commerce`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}
