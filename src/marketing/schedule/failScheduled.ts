import type { Knex } from '../../db/knex';
import { raiseInboxItem } from '../../inbox/service';
import { stampPublishFailure } from './publishStore';

export interface ScheduledFailure {
  accountId: string;
  contentId: string;
  /** The instant the workflow held (ISO). */
  at: string;
  code: string;
  message: string;
  /** The workflow's id, as GET /api/jobs/{id} takes it. */
  jobId: string;
}

export const PUBLISH_FAILED_KIND = 'content_publish_failed';

/**
 * A scheduled publish whose retries are spent: the item gets publish_failed_at and the coded error (calendar kind
 * `failed`), loses the date it held (so it no longer reads as scheduled), and the account gets one open inbox item
 * per item. Nothing happens for an item that no longer exists. Idempotent: a retried call stamps the same.
 */
export async function failScheduledPublish(db: Knex, failure: ScheduledFailure): Promise<{ recorded: boolean }> {
  const error = { code: failure.code, message: failure.message, scheduled_for: failure.at, job_id: failure.jobId };
  const item = await stampPublishFailure(db, failure.accountId, failure.contentId, error, new Date(failure.at));
  if (!item) return { recorded: false };
  await raiseInboxItem(db, failure.accountId, {
    kind: PUBLISH_FAILED_KIND,
    urgency: 'urgent',
    dedupKey: `${PUBLISH_FAILED_KIND}:${failure.contentId}`,
    title: `Scheduled publish failed: ${item.title}`,
    body: { content_id: failure.contentId, ...error },
  });
  return { recorded: true };
}
