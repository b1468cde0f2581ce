import { getKey } from '../src/email/keys/service';
import { refundDailyQuota, takeDailyQuota } from '../src/email/limits/dailyCap';
import { KeyRateLimiter } from '../src/email/limits/rateLimiter';
import { deliveryRetry } from '../src/email/send/enqueue';
import { eventData } from '../src/email/send/eventData';
import type { Knex } from '../src/db/knex';
import type { PreparedMessage } from '../src/email/send/prepare';
import { insertRecipients, markFailed } from '../src/email/send/schedule';
import { recipientsOf } from '../src/email/send/recipients';
import { claimDue, markSimulated, scheduledState } from '../src/email/send/schedule';
import { utcDay } from '../src/email/usage/recorder';
import { suppressedEvents } from '../src/email/suppressions/refuse';
import { suppressionsAmong } from '../src/email/suppressions/service';
import { insertEvents } from '../src/email/webhooks/service';
import type { ScheduledAttempt, ScheduledAttemptInput, ScheduledSendResult } from '../workflows/emailScheduledSend.contract';
import type { ActivityDeps } from './deps';

const FAILURES = {
  api_key_revoked: 'the email API key was revoked before the scheduled time',
  daily_quota_exceeded: "the key's daily cap was used up at the scheduled time",
  recipient_suppressed: 'every recipient was suppressed before the scheduled time; nothing was sent',
} as const;

/** The side effect of a scheduled email: at its time, re-check it and its key, then queue it for delivery (or fail it). */
export function createEmailScheduledActivities(deps: ActivityDeps) {
  const { db, config } = deps;
  // The key's per-second share, counted for the scheduled sends of this worker process (the API's windows are per replica).
  const limiter = new KeyRateLimiter(config.EMAIL_RATE_REPLICAS);

  return {
    /**
     * The message must still be `scheduled` and due (a cancelled one is left alone; a moved one answers its new
     * time). A revoked key fails it (`api_key_revoked`, never counted); a test key's is simulated; a live key's
     * waits for a slot of the key's per-second share, takes its daily cap (over it: `daily_quota_exceeded`), skips
     * recipients suppressed since it was scheduled (all of them: `recipient_suppressed`, refunded) and is queued
     * for delivery like a send accepted now.
     */
    async sendScheduledEmail(input: ScheduledAttemptInput): Promise<ScheduledAttempt> {
      const { accountId, emailId } = input;
      const state = await scheduledState(db, accountId, emailId);
      if (!state || state.status !== 'scheduled') return done({ email_id: emailId, status: settledStatus(state?.status) }, []);
      if (!state.due) return { outcome: 'not_due', scheduledAt: state.scheduled_at!.toISOString() };

      const key = state.key_id ? await getKey(db, accountId, state.key_id) : undefined;
      if (!key || key.revoked_at !== null) return fail(accountId, emailId, 'api_key_revoked');
      if (key.environment === 'test') {
        if (!(await claimDue(db, accountId, emailId, { status: 'sending' }))) return lostRace(emailId);
        await markSimulated(db, accountId, emailId, new Date());
        return done({ email_id: emailId, status: 'simulated' }, []);
      }

      const admission = limiter.admit(key.id, key.rate_per_second, 1);
      if (!admission.admitted) return { outcome: 'rate_limited', waitMs: Math.max(50, Math.ceil(admission.retryAfterMs)) };
      const now = new Date();
      const quotaDay = key.daily_cap === null ? null : utcDay(now);
      if (key.daily_cap !== null && !(await takeDailyQuota(db, key.id, key.daily_cap, 1, now)))
        return fail(accountId, emailId, 'daily_quota_exceeded');

      const retry = deliveryRetry(config, now);
      const taken = await db.transaction(async (trx) => {
        const message = await claimDue(trx, accountId, emailId, { status: 'queued', quotaDay, expiresAt: new Date(retry.expiresAt) });
        if (!message) return null;
        // Suppressions are read again at the time: an address bounced or complained since the email was scheduled.
        const recipients = recipientsOf(message);
        const rows = await suppressionsAmong(
          trx,
          accountId,
          recipients.map((r) => r.email),
        );
        const suppressed = new Map(rows.map((s) => [s.email, s.reason]));
        if (suppressed.size === recipients.length) {
          await markFailed(trx, accountId, emailId, 'recipient_suppressed');
          return { failed: await failedEvent(trx, accountId, message, 'recipient_suppressed'), eventIds: [] };
        }
        await insertRecipients(
          trx,
          accountId,
          recipients.map((r) =>
            suppressed.has(r.email)
              ? { ...r, messageId: emailId, state: 'skipped' as const, detail: { reason: suppressed.get(r.email) } }
              : { ...r, messageId: emailId, state: 'queued' as const },
          ),
        );
        const events = rows.length > 0 ? await insertEvents(trx, accountId, suppressedEvents(rows, message, false)) : [];
        return { failed: null, eventIds: events.map((e) => e.id) };
      });
      if (taken?.failed !== null && quotaDay) await refundDailyQuota(db, key.id, quotaDay, 1);
      if (!taken) return lostRace(emailId);
      if (taken.failed) return done({ email_id: emailId, status: 'failed', error_code: 'recipient_suppressed' }, taken.failed);
      return { outcome: 'queued', retry, eventIds: taken.eventIds };
    },
  };

  /** The due message fails at its time with its `email.failed` event (one transaction); nothing was counted. */
  async function fail(accountId: string, emailId: string, code: keyof typeof FAILURES): Promise<ScheduledAttempt> {
    const eventIds = await db.transaction(async (trx) => {
      const message = await claimDue(trx, accountId, emailId, { status: 'failed', errorCode: code });
      return message ? failedEvent(trx, accountId, message, code) : null;
    });
    if (!eventIds) return lostRace(emailId);
    return done({ email_id: emailId, status: 'failed', error_code: code }, eventIds);
  }
}

async function failedEvent(
  trx: Knex.Transaction,
  accountId: string,
  message: PreparedMessage,
  code: keyof typeof FAILURES,
): Promise<string[]> {
  const events = await insertEvents(trx, accountId, [
    { type: 'email.failed', data: { ...eventData(message), error: { code, message: FAILURES[code] } } },
  ]);
  return events.map((e) => e.id);
}

const done = (result: ScheduledSendResult, eventIds: string[]): ScheduledAttempt => ({ outcome: 'done', result, eventIds });

/** Cancelled between the check and the claim (the API's cancel won): nothing is sent. */
const lostRace = (emailId: string): ScheduledAttempt => done({ email_id: emailId, status: 'cancelled' }, []);

/** A retried attempt finds the message already settled: report it as it stands. */
function settledStatus(status: string | undefined): ScheduledSendResult['status'] {
  return status === 'sent' || status === 'simulated' || status === 'failed' ? status : 'cancelled';
}
