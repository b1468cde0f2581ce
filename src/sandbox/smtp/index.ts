import { randomUUID } from 'node:crypto';
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { parseMime, type ParsedMessage } from './mime';
import { sendReports, simulatedReports, type OutcomeSimulation } from './outcomes';
import { RefusalQueue, smtpError, type SmtpRefusal, type SmtpStage } from './refusals';
import { listenSmtp } from '../../email/smtp/listen';

export type { SmtpRefusal, SmtpStage } from './refusals';
export type { OutcomeSimulation } from './outcomes';
export { parseMime, type ParsedMessage } from './mime';

/** A message the relay accepted (the client sent the final `.` and got 250). */
export interface ReceivedMessage {
  /** The relay's queue id, also in its 250 reply: `250 OK: queued as <id>`. */
  queueId: string;
  envelope: { from: string; to: string[] };
  /** The message as received (dot-unstuffed), CRLF line ends. */
  raw: Buffer;
  /** Headers and text/html bodies, parsed. */
  parsed: ParsedMessage;
  /** The user of SMTP AUTH, when the relay asked for it. */
  user: string | null;
  receivedAt: Date;
}

export interface SmtpSandbox {
  host: string;
  port: number;
  /** `smtp://[user:pass@]127.0.0.1:<port>`, the form SMTP_URL takes. */
  url: string;
  /** Accepted messages, oldest first (at most `maxStored`, the oldest dropped first). */
  messages: ReceivedMessage[];
  /** Connections opened since the start or the last reset (pooled clients reuse theirs). */
  connections: number;
  /** Messages whose final "." arrived (answered or not yet: see dataDelayMs) since the start or the last reset. */
  dataReceived: number;
  /** Milliseconds before the 220 greeting of each new connection (a slow relay). */
  greetingDelayMs: number;
  /** Milliseconds between the end of a message's data and the relay's answer to it. */
  dataDelayMs: number;
  /** Refuse at `stage` for the next `times` uses (default 1): a sender, a recipient or a whole message. */
  refuseNext(stage: SmtpStage, refusal: SmtpRefusal, times?: number): void;
  /** Resolves once `count` messages are held, or rejects after `timeoutMs`. */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMessage[]>;
  /** Outcome simulation only: reports sent to the return path so far, and a wait for those still being sent. */
  reportsSent: number;
  reportsSettled(): Promise<void>;
  /** Forgets messages, counters and armed refusals; delays back to 0. */
  reset(): void;
  stop(): Promise<void>;
}

export interface SmtpSandboxOptions {
  host?: string;
  /** A fixed port (a relay coming back where it was); 0 or unset: a free one. */
  port?: number;
  /** Require SMTP AUTH (PLAIN or LOGIN, without TLS on loopback) with these credentials. */
  auth?: { user: string; pass: string };
  maxStored?: number;
  /** Advertise DSN and answer caught messages with simulated DSNs and feedback reports (outcomes.ts). */
  outcomes?: OutcomeSimulation;
}

/**
 * A catch-all SMTP relay on loopback (smtp-server): it accepts every sender and recipient, records each envelope and
 * raw message in memory, and misbehaves on demand (a slow greeting, a slow answer to DATA, refusals with any code).
 * The sandbox (`start --sandbox`) points SMTP_URL at it; tests read what a live send delivered.
 */
export async function startSmtpSandbox(options: SmtpSandboxOptions = {}): Promise<SmtpSandbox> {
  const host = options.host ?? '127.0.0.1';
  const maxStored = options.maxStored ?? 1000;
  const refusals = new RefusalQueue();
  const timers = new Set<NodeJS.Timeout>();
  const waiters = new Set<() => void>();
  const reporting = new Set<Promise<void>>();

  const later = (ms: number, run: () => void) => {
    if (ms <= 0) return run();
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  const store = (message: ReceivedMessage) => {
    sandbox.messages.push(message);
    if (sandbox.messages.length > maxStored) sandbox.messages.splice(0, sandbox.messages.length - maxStored);
    for (const wake of waiters) wake();
  };

  // Reports travel on their own connection to the envelope sender's return path, as a real relay's would.
  const simulate = (simulation: OutcomeSimulation, session: SMTPServerSession, raw: Buffer) => {
    const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
    const reports = simulatedReports(
      { mailFrom, envelopeId: session.envelope.dsn?.envid ?? null, rcptTo: session.envelope.rcptTo, raw },
      simulation.domains ?? ['*'],
    );
    if (reports.length === 0) return;
    const sending = sendReports(simulation, mailFrom, reports).then(
      () => void (sandbox.reportsSent += reports.length),
      () => undefined,
    );
    reporting.add(sending);
    void sending.finally(() => reporting.delete(sending));
  };

  const refuse = (stage: SmtpStage, callback: (err?: Error | null) => void, recipient?: string): boolean => {
    const refusal = refusals.take(stage, recipient);
    if (!refusal) return false;
    callback(smtpError(refusal));
    return true;
  };

  const server = new SMTPServer({
    name: 'smtp-sandbox.workyard.test',
    banner: 'Workyard SMTP sandbox',
    disableReverseLookup: true,
    hideSTARTTLS: true,
    hideDSN: !options.outcomes,
    authOptional: !options.auth,
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onConnect(_session: SMTPServerSession, callback: (err?: Error | null) => void) {
      sandbox.connections++;
      later(sandbox.greetingDelayMs, () => callback());
    },
    onAuth(auth, _session, callback) {
      const ok = options.auth && auth.username === options.auth.user && auth.password === options.auth.pass;
      if (!ok) return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      callback(null, { user: auth.username });
    },
    onMailFrom(_address: SMTPServerAddress, _session: SMTPServerSession, callback: (err?: Error | null) => void) {
      if (!refuse('mail', callback)) callback();
    },
    onRcptTo(address: SMTPServerAddress, _session: SMTPServerSession, callback: (err?: Error | null) => void) {
      if (!refuse('rcpt', callback, address.address)) callback();
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null, message?: string) => void) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A client that goes away before the final "." destroys the stream: nothing was delivered.
      stream.on('error', () => undefined);
      stream.on('end', () => {
        sandbox.dataReceived++;
        later(sandbox.dataDelayMs, () => {
          if (refuse('data', callback)) return;
          const raw = Buffer.concat(chunks);
          const queueId = randomUUID();
          store({
            queueId,
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            raw,
            parsed: parseMime(raw),
            user: typeof session.user === 'string' ? session.user : null,
            receivedAt: new Date(),
          });
          // Read the envelope now: the session forgets it once the client has its answer.
          if (options.outcomes) simulate(options.outcomes, session, raw);
          callback(null, `OK: queued as ${queueId}`);
        });
      });
    },
  });
  server.on('error', () => undefined); // a client's broken connection is not the sandbox's failure

  const listening = await listenSmtp(server, options.port ?? 0, host);
  const port = listening.port;
  const credentials = options.auth ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@` : '';

  const sandbox: SmtpSandbox = {
    host,
    port,
    url: `smtp://${credentials}${host}:${port}`,
    messages: [],
    connections: 0,
    dataReceived: 0,
    greetingDelayMs: 0,
    dataDelayMs: 0,
    refuseNext: (stage, refusal, times = 1) => refusals.arm(stage, refusal, times),
    waitForMessages: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (sandbox.messages.length < count) return;
          cleanup();
          resolve(sandbox.messages.slice());
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`the SMTP sandbox holds ${sandbox.messages.length} message(s), expected ${count}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    reportsSent: 0,
    reportsSettled: async () => {
      while (reporting.size > 0) await Promise.allSettled([...reporting]);
    },
    reset: () => {
      sandbox.messages.length = 0;
      sandbox.connections = 0;
      sandbox.dataReceived = 0;
      sandbox.greetingDelayMs = 0;
      sandbox.dataDelayMs = 0;
      refusals.clear();
    },
    stop: async () => {
      await Promise.allSettled([...reporting]);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await listening.close();
    },
  };
  return sandbox;
}
