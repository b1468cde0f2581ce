/**
 * Which job kinds `POST /api/jobs/{id}/replay` (and a bulk replay) may start again with their original input, and
 * why the others may not. Every kind of workflows/*.contract.ts is listed (test/jobs/replay.test.ts checks it); a kind
 * missing here (a test workflow, a kind added later without a decision) is not replayable.
 *
 * A kind is replayable when its input is the whole request (nothing was charged, reserved or written before the start
 * that a second start would skip or repeat) and a second run of it is a new, independent job.
 */
export type ReplayPolicy = { replayable: true } | { replayable: false; reason: string };

const REPLAYABLE: ReplayPolicy = { replayable: true };
const no = (reason: string): ReplayPolicy => ({ replayable: false, reason });

const SCHEDULED = no("it is a schedule's sweep, not an account's job; operators run it again with POST /api/schedules/{name}/trigger");
const ENTITY_HANDOFF = no(
  'it is a webhook hand-off: one long-lived workflow per connection fed by signals from the platform, so its input is not the work; the platform redelivers, and the next webhook starts it again',
);

export const REPLAY_POLICY: Readonly<Record<string, ReplayPolicy>> = {
  research: REPLAYABLE,
  'case-study': REPLAYABLE,
  'site-platform-forms-backfill': REPLAYABLE,

  'content-images': no(
    "an image run's billing standing and monthly image allowance are checked when it is requested, which a replay would skip; request the images again",
  ),
  'ai-turn': no('an AI turn belongs to its chat session and stored message; send the message again in the session'),
  'content-publish': no("publishing is one workflow per content item driven by the item's schedule; schedule or publish the item again"),
  'email-batch': no('a batch delivery sends emails: a replay could send them twice; the send queue retries what was not sent'),
  'email-delivery': no(
    'a delivery sends an email: a replay could send it twice; the job itself retries the relay until every recipient has its outcome',
  ),
  'email-scheduled': no('a scheduled send is one workflow per message steered by signals; schedule the message again'),
  'alert-event': no('it delivers one account webhook event (an alert); its retries are the delivery, not a new request'),
  'email-event': no('it is an email webhook event delivery; failed deliveries are redispatched by the email webhook machinery'),
  'commerce-shop': ENTITY_HANDOFF,
  'site-platform-events': ENTITY_HANDOFF,
  'commerce-privacy': no(
    "it fulfils a shop's privacy request received by webhook; the compliance sweep restarts an unfulfilled one within its deadline",
  ),
  'commerce-order-backfill': no("order backfills run from the order-backfill schedule, which resumes a shop's backfill on its next run"),
  'jobs-bulk': no('it is a bulk operation; send the bulk request again'),

  'commerce-compliance-sweep': SCHEDULED,
  'commerce-delivery-purge': SCHEDULED,
  'commerce-scope-drift': SCHEDULED,
  'commerce-webhook-health': SCHEDULED,
  'commerce-webhook-url-reconcile': SCHEDULED,
  'content-analytics-daily': SCHEDULED,
  'idempotency-key-purge': SCHEDULED,
  'site-platform-event-retention': SCHEDULED,
  'site-platform-token-health': SCHEDULED,
  'site-platform-webhook-health': SCHEDULED,
  'site-platform-webhook-url-reconcile': SCHEDULED,
};

const UNKNOWN = no('this kind of job cannot be replayed');

export function replayPolicyOf(kind: string): ReplayPolicy {
  return Object.hasOwn(REPLAY_POLICY, kind) ? REPLAY_POLICY[kind] : UNKNOWN;
}

/** The kinds a replay may start, for visibility queries (`JobKind IN (…)`). */
export const REPLAYABLE_KINDS: readonly string[] = Object.entries(REPLAY_POLICY)
  .filter(([, policy]) => policy.replayable)
  .map(([kind]) => kind);
