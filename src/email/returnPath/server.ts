import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { handleReturnedMessage, type ReportDeps } from './handle';
import { isReturnPathDomain } from './verp';
import { listenSmtp } from '../smtp/listen';

/** Reports carry headers (RET=HDRS) or an original message: a megabyte is plenty. */
export const RETURN_PATH_MAX_BYTES = 1024 * 1024;

export interface ReturnPathServer {
  host: string;
  port: number;
  /** Settles once every report received so far has been handled (tests wait on it). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

type Done = (err?: Error | null, message?: string) => void;
const reply = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/**
 * The SMTP server bounces and feedback reports come back to: it takes mail for `domain` and for sender domains'
 * `bounces.<domain>` subdomains (whose MX names it) only (any sender, the null
 * sender `<>` of DSNs included), reads each message as a report and always answers 250 once it is handled, so a
 * sender learns nothing about what it matched. No AUTH; TLS belongs to whatever fronts port 25.
 */
export async function startReturnPathServer(
  deps: ReportDeps,
  options: { host: string; port: number; domain: string },
): Promise<ReturnPathServer> {
  const domain = options.domain.toLowerCase();
  const pending = new Set<Promise<unknown>>();

  const server = new SMTPServer({
    name: domain,
    banner: 'Workyard return path',
    disableReverseLookup: true,
    hideSTARTTLS: true,
    authOptional: true,
    disabledCommands: ['AUTH'],
    size: RETURN_PATH_MAX_BYTES,
    logger: false,
    onRcptTo(address: SMTPServerAddress, _session: SMTPServerSession, callback: (err?: Error | null) => void) {
      const at = address.address.lastIndexOf('@');
      if (at < 0 || !isReturnPathDomain(address.address.slice(at + 1), domain)) return callback(reply(550, '5.7.1 Relaying denied'));
      callback();
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: Done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', () => undefined);
      stream.on('end', () => {
        if (stream.sizeExceeded) return callback(reply(552, '5.3.4 Message too big'));
        const rcptTo = session.envelope.rcptTo.map((r) => r.address);
        const work = handleReturnedMessage(deps, Buffer.concat(chunks), rcptTo, domain).catch((err: Error) => {
          deps.logger.error({ error: err.name, reason: err.message }, 'return path: a report could not be recorded');
        });
        pending.add(work);
        void work.finally(() => {
          pending.delete(work);
          callback(null, 'OK');
        });
      });
    },
  });
  server.on('error', () => undefined);

  const listening = await listenSmtp(server, options.port, options.host);
  return {
    host: options.host,
    port: listening.port,
    idle: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    stop: async () => {
      await Promise.allSettled([...pending]);
      await listening.close();
    },
  };
}
