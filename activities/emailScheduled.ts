import { ApiError } from '../src/http/errors';
import { getKey } from '../src/email/keys/service';
import { refundDailyQuota, takeDailyQuota } from '../src/email/limits/dailyCap';
import { KeyRateLimiter } from '../src/email/limits/rateLimiter';
import { recordOutcomes, relayAll, type Delivery } from '../src/email/send/deliver';
import type { PreparedMessage } from '../src/email/send/prepare';
import { claimDue, markSimulated, scheduledState } from '../src/email/send/schedule';
import { UsageRecorder, utcDay } from '../src/email/usage/recorder';
import { suppressedAmong } from '../src/email/suppressions/service';
import { insertEvents } from '../src/email/webhooks/service';
import type { ScheduledAttempt, ScheduledAttemptInput, ScheduledSendResult } from '../workflows/emailScheduledSend.contract';
import type { ActivityDeps } from './deps';

const keyRevoked = () => new ApiError(401, 'api_key_revoked', 'the email API key was revoked before the scheduled time');
const relayMissing = () => new ApiError(503, 'smtp_not_configured', 'the worker has no SMTP_URL: the message was not sent');
const recipientSuppressed = (emails: string[]) =>
  new ApiError(
    422,
    'recipient_suppressed',
    `a recipient was suppressed before the scheduled time (${emails.join(', ')}); nothing was sent`,
  );
const overDailyCap = () => new ApiError(429, 'daily_quota_exceeded', "the key's daily cap was used up at the scheduled time");

/** The side effect of a scheduled email: at its time, re-check it and its key, then send it (or fail it). */
export function createEmailScheduledActivities(deps: ActivityDeps) {
  const { db, config } = deps;
  // The key's per-second share, counted for the scheduled sends of this worker process (the API's windows are per replica).
  const limiter = new KeyRateLimiter(config.EMAIL_RATE_REPLICAS);

  return {
    /**
     * The message must still be `scheduled` and due (a cancelled one is left alone; a moved one answers its new
     * time). A revoked key fails it (`api_key_revoked`, never counted); a test key's is simulated; a live key's
     * waits for a slot of the key's per-second share, takes its daily cap (over it: `daily_quota_exceeded`) and goes
     * to the relay like a queued batch's message, with its `email.sent` / `email.failed` event.
     */
    async sendScheduledEmail(input: ScheduledAttemptInput): Promise<ScheduledAttempt> {
      const { accountId, emailId } = input;
      const fail = async (message: PreparedMessage | undefined, error: ApiError, quota: Quota | null) =>
        message ? record(accountId, [{ message, outcome: 'failed', error }], quota) : lostRace(emailId);
      const state = await scheduledState(db, accountId, emailId);
      if (!state || state.status !== 'scheduled') return done({ email_id: emailId, status: settledStatus(state?.status) }, []);
      if (!state.due) return { outcome: 'not_due', scheduledAt: state.scheduled_at!.toISOString() };

      const key = state.key_id ? await getKey(db, accountId, state.key_id) : undefined;
      if (!key || key.revoked_at !== null) return fail(await claimDue(db, accountId, emailId), keyRevoked(), null);
      if (key.environment === 'test') {
        const message = await claimDue(db, accountId, emailId);
        if (!message) return lostRace(emailId);
        await markSimulated(db, accountId, emailId, new Date());
        return done({ email_id: emailId, status: 'simulated' }, []);
      }

      const admission = limiter.admit(key.id, key.rate_per_second, 1);
      if (!admission.admitted) return { outcome: 'rate_limited', waitMs: Math.max(50, Math.ceil(admission.retryAfterMs)) };
      const now = new Date();
      const quotaDay = key.daily_cap === null ? null : utcDay(now);
      if (key.daily_cap !== null && !(await takeDailyQuota(db, key.id, key.daily_cap, 1, now)))
        return fail(await claimDue(db, accountId, emailId), overDailyCap(), null);
      const message = await claimDue(db, accountId, emailId);
      if (!message) {
        if (quotaDay) await refundDailyQuota(db, key.id, quotaDay, 1);
        return lostRace(emailId);
      }
      // Suppressions are read again at the time: an address bounced or complained since the email was scheduled.
      const suppressed = await suppressedAmong(
        db,
        accountId,
        [...message.to, ...message.cc, ...message.bcc].map((m) => m.address),
      );
      if (suppressed.size > 0) return fail(message, recipientSuppressed([...suppressed]), { keyId: key.id, day: quotaDay });
      if (!config.SMTP_URL) return fail(message, relayMissing(), { keyId: key.id, day: quotaDay });
      const deliveries = await relayAll(config.SMTP_URL, [message], () => null);
      return record(accountId, deliveries, { keyId: key.id, day: quotaDay });
    },
  };

  /** Marks the outcome with its event in one transaction; a failure gives its daily cap back. */
  async function record(accountId: string, deliveries: Delivery[], quota: Quota | null): Promise<ScheduledAttempt> {
    const [d] = deliveries;
    const eventIds = await db.transaction(async (trx) => {
      const events = await recordOutcomes(trx, accountId, deliveries);
      if (quota?.day && d.outcome !== 'sent') await refundDailyQuota(trx, quota.keyId, quota.day, 1);
      return events.length > 0 ? (await insertEvents(trx, accountId, events)).map((e) => e.id) : [];
    });
    if (d.outcome === 'sent' && quota) await countSend(quota.keyId, accountId);
    const result: ScheduledSendResult =
      d.outcome === 'sent'
        ? { email_id: d.message.id, status: 'sent' }
        : { email_id: d.message.id, status: 'failed', error_code: d.error.code };
    return done(result, eventIds);
  }

  async function countSend(keyId: string, accountId: string): Promise<void> {
    const usage = new UsageRecorder(db);
    usage.add(keyId, accountId, { sends: 1 });
    await usage.flush();
  }
}

interface Quota {
  keyId: string;
  day: string | null;
}

const done = (result: ScheduledSendResult, eventIds: string[]): ScheduledAttempt => ({ outcome: 'done', result, eventIds });

/** Cancelled between the check and the claim (the API's cancel won): nothing is sent. */
const lostRace = (emailId: string): ScheduledAttempt => done({ email_id: emailId, status: 'cancelled' }, []);

/** A retried attempt finds the message already settled: report it as it stands. */
function settledStatus(status: string | undefined): ScheduledSendResult['status'] {
  return status === 'sent' || status === 'simulated' || status === 'failed' ? status : 'cancelled';
}
