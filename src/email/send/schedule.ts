import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { jobId } from '../../temporal/jobIds';
import { startJob } from '../../temporal/jobs';
import { withTemporal } from '../../temporal/rpc';
import { emailScheduledSendContract } from '../../../workflows/emailScheduledSend.contract';
import { assertKeyActive, type EmailKeyAuth } from '../keys/authenticate';
import { emitEmailEvents } from '../webhooks/service';
import { formatMailbox } from './addresses';
import { eventData } from './eventData';
import type { PreparedMessage } from './prepare';
import { answeredRecipients, type AnsweredRecipient } from './recipients';
import * as scheduled from './scheduledStore';

// Steps of the scheduled send workflow (activities/emailScheduled.ts), as stored.
export { claimDue, markSimulated, scheduledState } from './scheduledStore';
export { insertRecipients, markFailed } from './queueStore';

export interface ScheduledEmail {
  id: string;
  messageId: string;
  status: 'scheduled';
  test: boolean;
  from: string;
  to: string[];
  createdAt: Date;
  scheduledAt: Date;
  recipients: Array<AnsweredRecipient<'scheduled'>>;
}

const notFound = () => new ApiError(404, 'email_not_found', 'email not found');
const notScheduled = (status: string) =>
  new ApiError(
    409,
    'email_not_scheduled',
    `the email is ${status}, not scheduled: only a scheduled email can be rescheduled or cancelled`,
    {
      details: { status },
    },
  );

/**
 * A checked message to send later: stored `scheduled` with its body (a test key's too, so it can be read, moved
 * and cancelled), its workflow `email-scheduled:<account>:<id>` started, then an `email.scheduled` event (live
 * keys). Nothing is counted now: the limits apply at its time. When the workflow cannot start, the message goes
 * and the request fails (503 `temporal_unavailable`).
 */
export async function scheduleMessage(
  deps: AppDeps,
  auth: EmailKeyAuth,
  message: PreparedMessage,
  at: Date,
  requestId: string,
): Promise<ScheduledEmail> {
  assertKeyActive(auth);
  await scheduled.insertScheduled(deps.db, auth.accountId, auth.keyId, message, at);
  try {
    await startJob(deps.temporal, deps.metrics, emailScheduledSendContract, {
      accountId: auth.accountId,
      key: message.id,
      args: [{ accountId: auth.accountId, keyId: auth.keyId, emailId: message.id, scheduledAt: at.toISOString() }],
      requestId,
    });
  } catch (err) {
    await scheduled.deleteScheduled(deps.db, auth.accountId, message.id);
    throw err;
  }
  const email = scheduledEmail(message, at, auth.environment === 'test');
  if (!email.test) await emitEmailEvents(deps, auth.accountId, [{ type: 'email.scheduled', data: scheduledEventData(message, at) }]);
  return email;
}

/** `PATCH /v1/email/emails/{id}`: a new time while the email is `scheduled`; its workflow re-arms its timer. */
export async function rescheduleEmail(deps: AppDeps, auth: EmailKeyAuth, id: string, at: Date): Promise<void> {
  const previous = isUuid(id) ? await scheduled.reschedule(deps.db, auth.accountId, id, at) : undefined;
  if (!previous) throw await stateError(deps, auth, id);
  try {
    await signal(deps, auth, id, (h) => h.signal(emailScheduledSendContract.signals.reschedule, { scheduled_at: at.toISOString() }));
  } catch (err) {
    // Without the signal the timer would fire at the old time only; an earlier new time would be missed.
    await scheduled.restoreSchedule(deps.db, auth.accountId, id, at, previous);
    throw err;
  }
}

/**
 * `POST /v1/email/emails/{id}/cancel`: `scheduled` → `cancelled` in the database (what the workflow checks before
 * sending), then the workflow is told to end now; if that signal fails, the workflow still ends at the time without
 * sending.
 */
export async function cancelEmail(deps: AppDeps, auth: EmailKeyAuth, id: string): Promise<void> {
  if (!isUuid(id) || !(await scheduled.cancelScheduled(deps.db, auth.accountId, id))) throw await stateError(deps, auth, id);
  await signal(deps, auth, id, (h) => h.signal(emailScheduledSendContract.signals.cancel, { reason: 'cancelled through the API' })).catch(
    () => undefined,
  );
}

async function stateError(deps: AppDeps, auth: EmailKeyAuth, id: string): Promise<ApiError> {
  const row = isUuid(id) ? await scheduled.scheduledState(deps.db, auth.accountId, id) : undefined;
  return row ? notScheduled(row.status) : notFound();
}

type Handle = ReturnType<AppDeps['temporal']['client']['workflow']['getHandle']>;

function signal(deps: AppDeps, auth: EmailKeyAuth, id: string, send: (handle: Handle) => Promise<void>): Promise<void> {
  const { client } = deps.temporal;
  const handle = client.workflow.getHandle(jobId(emailScheduledSendContract.jobKind, auth.accountId, id));
  return withTemporal(client, () => send(handle));
}

function scheduledEmail(message: PreparedMessage, at: Date, test: boolean): ScheduledEmail {
  return {
    id: message.id,
    messageId: message.messageId,
    status: 'scheduled',
    test,
    from: formatMailbox(message.from),
    to: message.to.map(formatMailbox),
    createdAt: message.createdAt,
    scheduledAt: at,
    recipients: answeredRecipients(message, 'scheduled'),
  };
}

/** A scheduled message's event data: the message's, and its time. */
function scheduledEventData(m: PreparedMessage, at: Date): Record<string, unknown> {
  return { ...eventData(m), scheduled_at: at.toISOString() };
}
