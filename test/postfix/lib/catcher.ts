import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { waitUntil } from './smtpProbe';

export interface CaughtMessage {
  /** The envelope sender ('' for the null sender of a DSN). */
  from: string;
  to: string[];
  raw: Buffer;
}

/** An SMTP server that keeps every message it is given: a stand-in next hop Postfix relays to (a return path, a relay). */
export interface SmtpCatcher {
  readonly port: number;
  readonly messages: CaughtMessage[];
  /** Waits for the first message that `match` accepts; throws after `timeoutMs`. */
  waitFor(match: (message: CaughtMessage) => boolean, timeoutMs?: number): Promise<CaughtMessage>;
  stop(): Promise<void>;
}

export async function startCatcher(port = 0, host = '127.0.0.1'): Promise<SmtpCatcher> {
  const messages: CaughtMessage[] = [];
  const server = new SMTPServer({
    name: 'catcher.workyard.test',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mailFrom = session.envelope.mailFrom;
        messages.push({
          from: mailFrom ? mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        });
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    messages,
    async waitFor(match, timeoutMs = 20_000) {
      if (!(await waitUntil(async () => messages.some(match), timeoutMs))) {
        const seen = messages.map((m) => `<${m.from}> → ${m.to.join(', ')}`).join('; ') || 'none';
        throw new Error(`no matching message reached the catcher in ${timeoutMs} ms (got: ${seen})`);
      }
      return messages.find(match)!;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
