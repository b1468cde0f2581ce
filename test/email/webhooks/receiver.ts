import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  /** The exact bytes received. */
  body: Buffer;
  at: number;
}

/** How the receiver answers one request: a status, optionally after a delay (longer than the sender's timeout: a timeout). */
export interface Answer {
  status: number;
  delayMs?: number;
}

/** A loopback webhook receiver: records every request and answers from a script (200 once the script is used up). */
export class Receiver {
  readonly received: ReceivedWebhook[] = [];
  private script: Answer[] = [];
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.received.push({ headers: req.headers, body: Buffer.concat(chunks), at: Date.now() });
      const answer = this.script.shift() ?? { status: 200 };
      const reply = () => {
        if (!res.destroyed) res.writeHead(answer.status, { 'content-type': 'text/plain' }).end('ok');
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
    });
  });

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  answer(...answers: Answer[]): this {
    this.script.push(...answers);
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Standard Webhooks verification, written from the spec (not from the sender's code): HMAC-SHA256 keyed with the
 * base64 part of `whsec_…` over `<webhook-id>.<webhook-timestamp>.<raw body>`; any `v1,<sig>` of the header may match.
 */
export function verifyStandardWebhook(secret: string, headers: http.IncomingHttpHeaders, body: Buffer): boolean {
  const id = String(headers['webhook-id'] ?? '');
  const timestamp = String(headers['webhook-timestamp'] ?? '');
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]))
    .digest('base64');
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((entry) => entry === `v1,${expected}`);
}
