import { randomUUID } from 'node:crypto';
import { createTransport } from 'nodemailer';
import type { Config } from '../../../src/config';
import { verpAddress, verpEnvelopeId } from '../../../src/email/returnPath/verp';
import { startReturnPathServer, type ReturnPathServer } from '../../../src/email/returnPath/server';
import { harness } from '../../helpers/harness';
import { eventually } from '../../jobs/jobTestKit';
import { startSendWorld, type SendWorld } from '../send/kit';

export const RETURN_DOMAIN = 'returns.workyard.test';
/** The recipient domain the relay simulates outcomes for; other domains get no reports. */
export const SIMULATED_DOMAIN = 'customer.test';

/** The app sending with VERP through the sandbox relay, which reports back to a real return-path server. */
export interface OutcomeWorld extends SendWorld {
  returnPath: ReturnPathServer;
}

export async function startOutcomeWorld(config: Partial<Config> = {}): Promise<OutcomeWorld> {
  const returnPath = await startReturnPathServer(harness().deps, { host: '127.0.0.1', port: 0, domain: RETURN_DOMAIN });
  const world = await startSendWorld({
    config: { EMAIL_RETURN_PATH_DOMAIN: RETURN_DOMAIN, EMAIL_RETURN_PATH_PORT: returnPath.port, ...config },
    smtp: { outcomes: { returnPath: { host: '127.0.0.1', port: returnPath.port }, domains: [SIMULATED_DOMAIN] } },
  });
  return {
    ...world,
    returnPath,
    close: async () => {
      await world.close();
      await returnPath.stop();
    },
  };
}

export async function eventsOf(accountId: string, types?: string[]) {
  const q = harness()
    .db('email_events')
    .where({ account_id: accountId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  if (types) q.whereIn('type', types);
  return q.select('type', 'data');
}

/** Waits until the account has an event of each of `types` (reports arrive after the send answered). */
export function eventuallyEvents(accountId: string, types: string[], timeoutMs = 10_000) {
  return eventually(
    () => eventsOf(accountId),
    (rows) => types.every((t) => rows.some((r) => r.type === t)),
    timeoutMs,
    `events ${types.join(', ')}`,
  );
}

export async function suppressionRows(accountId: string) {
  return harness().db('email_suppressions').where({ account_id: accountId }).orderBy('email').select('email', 'reason', 'message_id');
}

/** The tagged return path of `recipient`'s copy of the email `emailId`, as the send path makes it. */
export const returnPathOf = (emailId: string, recipient: string) =>
  verpAddress(harness().deps.secretHashKey, RETURN_DOMAIN, emailId, recipient);
export const envelopeIdOf = (emailId: string, recipient: string) => verpEnvelopeId(harness().deps.secretHashKey, emailId, recipient);

/** A live email of the account as the relay took it: stored `sent` with its envelope recipients (lower case). */
export async function storedEmail(accountId: string, recipients: string[]): Promise<string> {
  const id = randomUUID();
  await harness()
    .db('email_messages')
    .insert({
      id,
      account_id: accountId,
      status: 'sent',
      from_address: 'support@mail.example.test',
      to_addresses: recipients,
      recipients: recipients.map((r) => r.toLowerCase()),
      subject: 'Hello',
      smtp_message_id: `<${id}@mail.example.test>`,
      sent_at: new Date(),
    });
  return id;
}

/** Delivers `raw` to the return-path server as an MTA would (null sender); answers the server's reply. */
export async function deliverReport(port: number, to: string | string[], raw: string): Promise<string> {
  const transport = createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  try {
    return String((await transport.sendMail({ envelope: { from: '', to: Array.isArray(to) ? to : [to] }, raw })).response);
  } finally {
    transport.close();
  }
}

/** A DSN (RFC 3464) about one recipient. */
export function dsnReport(r: {
  recipient: string;
  action?: string;
  status?: string;
  envelopeId?: string | null;
  originalRecipient?: string;
}): string {
  return multipartReport('delivery-status', [
    ['text/plain', 'A delivery report.'],
    [
      'message/delivery-status',
      [
        'Reporting-MTA: dns; mx.reporter.test',
        ...(r.envelopeId ? [`Original-Envelope-Id: ${r.envelopeId}`] : []),
        '',
        ...(r.originalRecipient ? [`Original-Recipient: rfc822;${r.originalRecipient}`] : []),
        `Final-Recipient: rfc822; ${r.recipient}`,
        `Action: ${r.action ?? 'failed'}`,
        `Status: ${r.status ?? '5.1.1'}`,
        '',
      ].join('\r\n'),
    ],
  ]);
}

/** A feedback report (RFC 5965): who complained (Original-Rcpt-To), the original's envelope sender and headers. */
export function arfReport(r: { rcptTo?: string[]; originalMailFrom?: string; originalHeaders?: string[]; feedbackType?: string }): string {
  return multipartReport('feedback-report', [
    ['text/plain', 'An abuse report.'],
    [
      'message/feedback-report',
      [
        `Feedback-Type: ${r.feedbackType ?? 'abuse'}`,
        'User-Agent: Reporter/1.0',
        'Version: 1',
        ...(r.originalMailFrom ? [`Original-Mail-From: <${r.originalMailFrom}>`] : []),
        ...(r.rcptTo ?? []).map((a) => `Original-Rcpt-To: <${a}>`),
        '',
      ].join('\r\n'),
    ],
    ['message/rfc822', [...(r.originalHeaders ?? ['Subject: Hello']), '', 'body', ''].join('\r\n')],
  ]);
}

function multipartReport(type: string, parts: Array<[string, string]>): string {
  return [
    'From: MAILER-DAEMON@mx.reporter.test',
    'Subject: Report',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=${type}; boundary="b"`,
    '',
    ...parts.map(([contentType, body]) => `--b\r\nContent-Type: ${contentType}\r\n\r\n${body}`),
    '--b--',
    '',
  ].join('\r\n');
}

/** The account's recorded outcomes, `type recipient`, sorted. */
export async function outcomeList(accountId: string): Promise<string[]> {
  const rows = await harness().db('email_message_events').where({ account_id: accountId }).select('type', 'recipient');
  return rows.map((r) => `${r.type} ${r.recipient}`).sort();
}
