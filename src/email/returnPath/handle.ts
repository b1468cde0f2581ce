import type { AppDeps } from '../../deps';
import { recordOutcome, type RecordResult } from '../outcomes/record';
import type { Outcome } from '../outcomes/types';
import { parseReport, type DsnRecipient, type Report } from './report';
import { readVerp, readVerpEnvelopeId, verpNames, type VerpTag } from './verp';

export type ReportDeps = Pick<AppDeps, 'db' | 'temporal' | 'metrics' | 'logger' | 'secretHashKey'>;

type Dsn = Extract<Report, { kind: 'dsn' }>;

const sameTag = (a: VerpTag, b: VerpTag) => a.emailId === b.emailId && a.tag === b.tag;

/**
 * The tagged return path (verp.ts) a report answers to, its MAC verified: the return-path address it was delivered
 * to; else a DSN's Original-Envelope-Id, which carries the same tagged value (ENVID); else a feedback report's
 * Original-Mail-From or the Return-Path of the original it quotes (feedback loops report to an address of their own).
 * Null — the report counts for nothing — when there is none, when the report is addressed to several, and when the
 * address and the envelope id disagree (one of them was made up).
 *
 * The original's Message-ID never counts: every recipient's copy shows it and it carries no MAC, so anyone who got
 * the email could name a co-recipient with it. Nor do the `bounces+<email id>@` addresses of the previous format,
 * which carried no MAC either.
 */
export function reportTag(secret: string, report: Report, rcptTo: string[], domain: string): VerpTag | null {
  const addressed: VerpTag[] = [];
  for (const address of rcptTo) {
    const tag = readVerp(secret, address, domain);
    if (tag && !addressed.some((t) => sameTag(t, tag))) addressed.push(tag);
  }
  if (addressed.length > 1) return null;
  if (report.kind === 'dsn' && report.envelopeId) {
    const enveloped = readVerpEnvelopeId(secret, report.envelopeId);
    if (addressed[0] && !(enveloped && sameTag(enveloped, addressed[0]))) return null;
    return enveloped;
  }
  if (addressed[0]) return addressed[0];
  return report.kind === 'arf' && report.originalMailFrom ? readVerp(secret, report.originalMailFrom, domain) : null;
}

/**
 * A DSN recipient's outcome: delivered (`relayed` and `expanded` too: handed on to a system that will not report,
 * or to the members of a list — the last report there will be, marked by its `action`), delayed, a hard (5.x.x)
 * bounce that suppresses, or a soft one that does not.
 */
function dsnOutcome(r: DsnRecipient, recipient: string, report: Dsn): Outcome | null {
  const detail = {
    action: r.action,
    status: r.status,
    ...(r.diagnostic ? { diagnostic_code: r.diagnostic } : {}),
    ...(r.remoteMta ? { remote_mta: r.remoteMta } : {}),
    ...(report.reportingMta ? { reporting_mta: report.reportingMta } : {}),
  };
  if (r.action === 'delivered' || r.action === 'relayed' || r.action === 'expanded') {
    return { type: 'email.delivered', recipient, detail };
  }
  if (r.action === 'delayed') return { type: 'email.delivery_delayed', recipient, detail };
  if (r.action !== 'failed') return null;
  const hard = !r.status || r.status.startsWith('5.');
  return {
    type: 'email.bounced',
    recipient,
    detail: { ...detail, bounce_type: hard ? 'hard' : 'soft' },
    ...(hard ? { suppress: 'bounce' as const } : {}),
  };
}

/** The report's outcomes about the one recipient `tag` names; what it says about anyone else is dropped. */
function outcomesFor(secret: string, report: Report, tag: VerpTag): Outcome[] {
  const named = (address: string | null): address is string => !!address && verpNames(secret, tag.emailId, tag.tag, address);
  if (report.kind === 'dsn') {
    return report.recipients.flatMap((r) => {
      // A relay that rewrote the address (an alias, a forward) keeps ours in Original-Recipient.
      const recipient = [r.recipient, r.originalRecipient].find(named);
      const outcome = recipient ? dsnOutcome(r, recipient, report) : null;
      return outcome ? [outcome] : [];
    });
  }
  // `not-spam` takes a complaint back; every other feedback type is a complaint.
  if (report.feedbackType === 'not-spam') return [];
  return report.recipients.filter(named).map((recipient) => ({
    type: 'email.complained' as const,
    recipient,
    detail: { feedback_type: report.feedbackType, ...(report.userAgent ? { user_agent: report.userAgent } : {}) },
    suppress: 'complaint' as const,
  }));
}

/**
 * One message received by the return path. A report only ever affects the recipient its own tagged return path
 * names: each of its outcomes about that recipient is recorded (an unknown email, a recipient it never had or a
 * repeated outcome changes nothing: record.ts), everything else it says is ignored. The sender is never told which:
 * the SMTP answer is the same. Logged without bodies or addresses.
 */
export async function handleReturnedMessage(deps: ReportDeps, raw: Buffer, rcptTo: string[], domain: string): Promise<RecordResult[]> {
  const report = parseReport(raw);
  if (!report) {
    deps.logger.info({ bytes: raw.length }, 'return path: not a delivery report; ignored');
    return [];
  }
  const tag = reportTag(deps.secretHashKey, report, rcptTo, domain);
  const outcomes = tag ? outcomesFor(deps.secretHashKey, report, tag) : [];
  const results: RecordResult[] = [];
  for (const outcome of outcomes) results.push(await recordOutcome(deps, tag!.emailId, outcome));
  deps.logger.info(
    {
      kind: report.kind,
      emailId: tag?.emailId ?? null,
      outcomes: outcomes.map((o) => o.type),
      ignored: report.recipients.length - outcomes.length,
      results,
    },
    tag ? 'return path: report read' : 'return path: report without a valid tagged return path; ignored',
  );
  return results;
}
