import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import type { EmailKeyAuth } from '../keys/authenticate';
import { authenticateSubmission, insecureAuthAllowed } from './auth';
import { keepOwnEnhancedCodes } from './enhancedCodes';
import { checkRecipient, checkSender } from './envelope';
import { listenSmtp, type ListeningSmtp } from './listen';
import { smtpError, smtpRefusal, type SmtpStage } from './replies';
import { submitMessage } from './submit';
import type { TlsPair } from './tls';

export interface SubmissionListen {
  host: string;
  /** STARTTLS port (587); null: off; 0: any free port. */
  starttlsPort: number | null;
  /** Implicit TLS port (465); null: off; 0: any free port. */
  tlsPort: number | null;
  tls: TlsPair;
  /** How long open connections get once a stop begins. */
  closeTimeoutMs?: number;
}

export interface SubmissionServer {
  host: string;
  /** Bound ports (the real ones when 0 was asked). */
  starttlsPort: number | null;
  tlsPort: number | null;
  stop(): Promise<void>;
}

type Callback = (err?: Error | null) => void;

/**
 * SMTP submission (smtp-server) on up to two ports, both sending through the REST send path: AUTH with the email
 * API key, MAIL FROM's domain rules, at most 50 envelope recipients none of them suppressed, then at the end of DATA
 * `submitMessage`. It advertises PIPELINING, 8BITMIME, ENHANCEDSTATUSCODES, SIZE, STARTTLS (before TLS) and AUTH
 * (after it); not DSN, SMTPUTF8 or REQUIRETLS, whose parameters are refused (parameters.ts).
 */
export async function startSubmissionServer(deps: AppDeps, listen: SubmissionListen): Promise<SubmissionServer> {
  const listening: ListeningSmtp[] = [];
  const closeAll = () => Promise.all(listening.map((l) => l.close())).then(() => undefined);
  const bound = async (port: number | null, secure: boolean) => {
    if (port === null) return null;
    const server = await listenSmtp(submissionServer(deps, listen, secure), port, listen.host);
    listening.push(server);
    return server.port;
  };
  try {
    const starttlsPort = await bound(listen.starttlsPort, false);
    const tlsPort = await bound(listen.tlsPort, true);
    return { host: listen.host, starttlsPort, tlsPort, stop: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

function submissionServer(deps: AppDeps, listen: SubmissionListen, secure: boolean): SMTPServer {
  const config = deps.config;
  // The authenticated key of each connection (smtp-server's session.user holds a string).
  const keys = new Map<string, EmailKeyAuth>();
  const refuse = (callback: Callback, stage: SmtpStage) => (err: unknown) => {
    if (!(err instanceof ApiError)) deps.logger.error({ err, stage }, 'SMTP submission failed');
    callback(smtpRefusal(err, stage));
  };
  const keyOf = (session: SMTPServerSession) => {
    const auth = keys.get(session.id);
    if (auth) return auth;
    // Before TLS AUTH is not offered (so smtp-server's own "authentication required" does not apply): say why.
    if (!session.secure) throw smtpError('encryption_required', 'issue STARTTLS first (or use port 465); AUTH is offered after it');
    throw new ApiError(401, 'invalid_api_key', 'authenticate first');
  };

  const server = new SMTPServer({
    secure,
    key: listen.tls.key,
    cert: listen.tls.cert,
    banner: 'Workyard SMTP submission',
    size: config.SMTP_SUBMISSION_MAX_BYTES,
    hideENHANCEDSTATUSCODES: false,
    hideDSN: true,
    // Addresses are ASCII (src/email/send/addresses.ts), and the relay's TLS on every hop cannot be promised.
    hideSMTPUTF8: true,
    hideREQUIRETLS: true,
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: false,
    // smtp-server alone would list AUTH in the EHLO answer before STARTTLS (and answer 538 only once a client has
    // sent its credentials in clear): onConnect withdraws AUTH from a connection until TLS is up, except for the
    // loopback development override, which also needs smtp-server to accept AUTH without TLS.
    allowInsecureAuth: config.SMTP_SUBMISSION_ALLOW_INSECURE_LOOPBACK,
    disableReverseLookup: true,
    closeTimeout: listen.closeTimeoutMs ?? 5_000,
    logger: false,
    onConnect(session, callback) {
      if (!session.secure && !insecureAuthAllowed(config, session.remoteAddress)) session.disabledCommands = ['AUTH'];
      callback();
    },
    onSecure(_socket, session, callback) {
      session.disabledCommands = undefined; // back to the server-wide list: AUTH is offered over TLS
      callback();
    },
    onAuth(auth, session, callback) {
      authenticateSubmission(deps, auth, session).then(
        (key) => {
          keys.set(session.id, key);
          callback(null, { user: config.SMTP_SUBMISSION_USER });
        },
        refuse(callback, 'auth'),
      );
    },
    onMailFrom(address, session, callback) {
      Promise.resolve()
        .then(() => checkSender(deps, keyOf(session), address))
        .then(() => callback(), refuse(callback, 'mail'));
    },
    onRcptTo(address, session, callback) {
      Promise.resolve()
        .then(() => checkRecipient(deps, keyOf(session), address, session))
        .then(() => callback(), refuse(callback, 'rcpt'));
    },
    onData(stream: SMTPServerDataStream, session, callback: (err?: Error | null, message?: string) => void) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on('error', () => undefined); // the client went away mid-DATA: nothing to answer
      stream.on('end', () => {
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        const sizeExceeded = stream.sizeExceeded;
        Promise.resolve()
          .then(() => {
            if (sizeExceeded) {
              throw smtpError('message_too_big', `messages are at most ${config.SMTP_SUBMISSION_MAX_BYTES} bytes`, 413);
            }
            return submitMessage(deps, keyOf(session), Buffer.concat(chunks), envelope);
          })
          .then(
            (done) => {
              const replayed = done.replayed ? ' (idempotent replay: not sent again)' : '';
              callback(null, `2.0.0 OK id=${done.id} message-id=${done.messageId} status=${done.status}${replayed}`);
            },
            refuse(callback, 'data'),
          );
      });
    },
    onClose(session) {
      keys.delete(session.id);
    },
  });
  keepOwnEnhancedCodes(server);
  // A client's broken connection or a failed TLS handshake is not the server's failure.
  server.on('error', (err) => deps.logger.debug({ err: (err as Error).message }, 'SMTP submission connection error'));
  return server;
}
