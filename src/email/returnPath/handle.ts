import type { AppDeps } from '../../deps';
import { isUuid } from '../../http/ids';
import { recordOutcome, type RecordResult } from '../outcomes/record';
import type { Outcome } from '../outcomes/types';
import { parseReport, type DsnRecipient, type Report } from './report';

export type ReportDeps = Pick<AppDeps, 'db' | 'temporal' | 'metrics' | 'logger'>;

/** `bounces+<email id>@<domain>` → the email id; null for any other address. */
export function verpMessageId(address: string, domain: string): string | null {
  const match = /^bounces\+([^@]+)@(.+)$/i.exec(address.trim());
  if (!match || match[2].toLowerCase() !== domain.toLowerCase()) return null;
  return isUuid(match[1]) ? match[1].toLowerCase() : null;
}

/**
 * Which email a report is about: the VERP recipient it was sent to, else its Original-Envelope-Id, else (a
 * feedback loop's own address) the original's Message-ID `<id@domain>`. A VERP address and an envelope id naming
 * different emails is a forgery: nothing.
 */
export function reportMessageId(report: Report, rcptTo: string[], domain: string): string | null {
  const verp = rcptTo.map((a) => verpMessageId(a, domain)).find((id) => id !== null) ?? null;
  const envelopeId = report.kind === 'dsn' && report.envelopeId && isUuid(report.envelopeId) ? report.envelopeId.toLowerCase() : null;
  if (verp && envelopeId && verp !== envelopeId) return null;
  if (verp ?? envelopeId) return verp ?? envelopeId;
  const fromHeader = /^<?([0-9a-f-]{36})@/i.exec(report.originalMessageId ?? '');
  return fromHeader && isUuid(fromHeader[1]) ? fromHeader[1].toLowerCase() : null;
}

/** A DSN recipient's outcome: delivered, delayed, a hard (5.x.x) bounce that suppresses, or a soft one that does not. */
function dsnOutcome(r: DsnRecipient, report: Extract<Report, { kind: 'dsn' }>): Outcome | null {
  const detail = {
    action: r.action,
    status: r.status,
    ...(r.diagnostic ? { diagnostic_code: r.diagnostic } : {}),
    ...(r.remoteMta ? { remote_mta: r.remoteMta } : {}),
    ...(report.reportingMta ? { reporting_mta: report.reportingMta } : {}),
  };
  if (r.action === 'delivered') return { type: 'email.delivered', recipient: r.recipient, detail };
  if (r.action === 'delayed') return { type: 'email.delivery_delayed', recipient: r.recipient, detail };
  if (r.action !== 'failed') return null; // relayed / expanded: nothing final to tell
  const hard = !r.status || r.status.startsWith('5.');
  return {
    type: 'email.bounced',
    recipient: r.recipient,
    detail: { ...detail, bounce_type: hard ? 'hard' : 'soft' },
    ...(hard ? { suppress: 'bounce' as const } : {}),
  };
}

function outcomesOf(report: Report): Outcome[] {
  if (report.kind === 'dsn') return report.recipients.map((r) => dsnOutcome(r, report)).filter((o): o is Outcome => o !== null);
  // `not-spam` takes a complaint back; every other feedback type is a complaint.
  if (report.feedbackType === 'not-spam') return [];
  return report.recipients.map((recipient) => ({
    type: 'email.complained' as const,
    recipient,
    detail: { feedback_type: report.feedbackType, ...(report.userAgent ? { user_agent: report.userAgent } : {}) },
    suppress: 'complaint' as const,
  }));
}

/**
 * One message received by the return path: a report about one of our emails is recorded per recipient; anything
 * else (not a report, an unknown or mismatched email, a recipient the email never had) is ignored. The sender is
 * never told which: the SMTP answer is the same. Logged without bodies or addresses.
 */
export async function handleReturnedMessage(deps: ReportDeps, raw: Buffer, rcptTo: string[], domain: string): Promise<RecordResult[]> {
  const report = parseReport(raw);
  if (!report) {
    deps.logger.info({ bytes: raw.length }, 'return path: not a delivery report; ignored');
    return [];
  }
  const messageId = reportMessageId(report, rcptTo, domain);
  const outcomes = messageId ? outcomesOf(report) : [];
  const results: RecordResult[] = [];
  for (const outcome of outcomes) results.push(await recordOutcome(deps, messageId!, outcome));
  deps.logger.info(
    { kind: report.kind, emailId: messageId, outcomes: outcomes.map((o) => o.type), results },
    messageId ? 'return path: report read' : 'return path: report for no known email; ignored',
  );
  return results;
}
