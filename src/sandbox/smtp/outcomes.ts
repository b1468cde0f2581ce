import { randomUUID } from 'node:crypto';
import { createTransport } from 'nodemailer';
import type { SMTPServerAddress } from 'smtp-server';

/**
 * Where the sandbox relay sends its simulated reports (the service's return path), and for which recipient domains
 * (`*`: all). The local part (before any `+label`) decides: `bounced` a failure DSN (5.1.1), `delayed` a delay DSN
 * (4.4.7), `relayed` a relayed DSN (handed on to a system that does not report), `expanded` an expanded one (a list),
 * `complained` a success DSN then a feedback report (ARF), anything else a success DSN — each only when the sender
 * asked for it with NOTIFY (RFC 3461; no NOTIFY means failure and delay), the ARF always. Reports go to the envelope
 * sender whatever its form (a tagged VERP return path is passed back unchanged), with the ENVID and ORCPT it gave.
 */
export interface OutcomeSimulation {
  returnPath: { host: string; port: number };
  domains?: string[];
}

export interface CaughtMessage {
  mailFrom: string;
  envelopeId: string | null;
  rcptTo: SMTPServerAddress[];
  raw: Buffer;
}

const REPORTING_MTA = 'smtp-sandbox.workyard.test';

type Action = 'delivered' | 'failed' | 'delayed' | 'relayed' | 'expanded';

const ACTION_OF = new Map<string, Action>([
  ['bounced', 'failed'],
  ['delayed', 'delayed'],
  ['relayed', 'relayed'],
  ['expanded', 'expanded'],
]);
/** The NOTIFY value that asks for each action's report (RFC 3461 4.1: relayed and expanded go with SUCCESS). */
const NOTIFY_OF: Record<Action, string> = {
  delivered: 'SUCCESS',
  relayed: 'SUCCESS',
  expanded: 'SUCCESS',
  failed: 'FAILURE',
  delayed: 'DELAY',
};

/** The reports a caught message earns, as raw messages to send to its envelope sender. */
export function simulatedReports(message: CaughtMessage, domains: string[]): Buffer[] {
  if (!message.mailFrom) return []; // a report itself (null sender) never earns one
  const reports: Buffer[] = [];
  const headers = originalHeaders(message.raw);
  for (const rcpt of message.rcptTo) {
    const address = rcpt.address.toLowerCase();
    const domain = address.slice(address.lastIndexOf('@') + 1);
    if (!domains.includes('*') && !domains.includes(domain)) continue;
    const local = address.slice(0, address.lastIndexOf('@')).split('+')[0];
    const notify = rcpt.dsn?.notify?.map((n) => n.toUpperCase()) ?? ['FAILURE', 'DELAY'];
    const action = ACTION_OF.get(local) ?? 'delivered';
    if (notify.includes(NOTIFY_OF[action])) reports.push(dsn(message, rcpt, action, headers));
    if (local === 'complained') reports.push(arf(message, address, headers));
  }
  return reports;
}

/** Sends each report to the return path from the null sender, as an MTA would; failures are the sandbox's to ignore. */
export async function sendReports(simulation: OutcomeSimulation, to: string, reports: Buffer[]): Promise<void> {
  if (reports.length === 0) return;
  const transport = createTransport({ host: simulation.returnPath.host, port: simulation.returnPath.port, secure: false, ignoreTLS: true });
  try {
    for (const raw of reports) await transport.sendMail({ envelope: { from: '', to: [to] }, raw });
  } finally {
    transport.close();
  }
}

const STATUS: Record<Action, string> = { delivered: '2.0.0', relayed: '2.0.0', expanded: '2.0.0', failed: '5.1.1', delayed: '4.4.7' };
const DIAGNOSTIC: Record<Action, string> = {
  delivered: 'smtp; 250 2.0.0 OK',
  relayed: 'smtp; 250 2.0.0 OK (relayed to a system without DSN)',
  expanded: 'smtp; 250 2.0.0 OK (delivered to the members of a list)',
  failed: 'smtp; 550 5.1.1 The email account that you tried to reach does not exist',
  delayed: 'smtp; 451 4.4.7 Mailbox temporarily unavailable; still trying',
};
const HUMAN: Record<Action, string> = {
  delivered: 'Your message was delivered to the recipient.',
  relayed: 'Your message was relayed to a system that does not send delivery notifications.',
  expanded: 'Your message was delivered to the members of a mailing list.',
  failed: 'Your message could not be delivered to one or more recipients. It has been returned.',
  delayed: 'Your message has not been delivered yet; the relay will keep trying.',
};

function dsn(message: CaughtMessage, rcpt: SMTPServerAddress, action: Action, headers: string): Buffer {
  const recipient = rcpt.address.toLowerCase();
  const [status, diagnostic, human] = [STATUS[action], DIAGNOSTIC[action], HUMAN[action]];
  const boundary = `dsn-${randomUUID()}`;
  const perMessage = [
    `Reporting-MTA: dns; ${REPORTING_MTA}`,
    ...(message.envelopeId ? [`Original-Envelope-Id: ${message.envelopeId}`] : []),
  ];
  const perRecipient = [
    ...(rcpt.dsn?.orcpt ? [`Original-Recipient: ${rcpt.dsn.orcpt}`] : []),
    `Final-Recipient: rfc822; ${recipient}`,
    `Action: ${action}`,
    `Status: ${status}`,
    `Remote-MTA: dns; mx.${recipient.split('@')[1]}`,
    `Diagnostic-Code: ${diagnostic}`,
    ...(action === 'delayed' ? [`Will-Retry-Until: ${new Date(Date.now() + 4 * 86_400_000).toUTCString()}`] : []),
  ];
  return report(message.mailFrom, 'delivery-status', boundary, `Delivery Status Notification (${action})`, [
    ['text/plain; charset=utf-8', human],
    ['message/delivery-status', `${perMessage.join('\r\n')}\r\n\r\n${perRecipient.join('\r\n')}\r\n`],
    ['text/rfc822-headers', headers],
  ]);
}

function arf(message: CaughtMessage, recipient: string, headers: string): Buffer {
  const boundary = `arf-${randomUUID()}`;
  const feedback = [
    'Feedback-Type: abuse',
    'User-Agent: WorkyardSandbox/1.0',
    'Version: 1',
    `Original-Mail-From: <${message.mailFrom}>`,
    `Original-Rcpt-To: <${recipient}>`,
    `Arrival-Date: ${new Date().toUTCString()}`,
    `Reported-Domain: ${recipient.split('@')[1]}`,
  ];
  return report(message.mailFrom, 'feedback-report', boundary, 'Abuse report', [
    ['text/plain; charset=utf-8', 'This is an email abuse report for an email message received by the sandbox.'],
    ['message/feedback-report', `${feedback.join('\r\n')}\r\n`],
    ['message/rfc822', `${headers}\r\n`],
  ]);
}

function report(to: string, type: string, boundary: string, subject: string, parts: Array<[string, string]>): Buffer {
  const head = [
    `From: Mail Delivery System <mailer-daemon@${REPORTING_MTA}>`,
    `To: ${to}`,
    `Subject: ${subject}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${randomUUID()}@${REPORTING_MTA}>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=${type}; boundary="${boundary}"`,
  ];
  const body = parts.map(([contentType, content]) => `--${boundary}\r\nContent-Type: ${contentType}\r\n\r\n${content}`).join('\r\n');
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${body}\r\n--${boundary}--\r\n`);
}

/** The original's header block (what RET=HDRS returns). */
function originalHeaders(raw: Buffer): string {
  const text = raw.toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  return end < 0 ? text : text.slice(0, end).replace(/\r?\n/g, '\r\n') + '\r\n';
}
