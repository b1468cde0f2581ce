import type { Knex } from '../../db/knex';
import type { Page } from '../../http/pagination';
import type { Actor } from '../actor';
import { getContent } from '../content/service';
import * as store from './store';
import type { Decision, ReviewRow } from './store';

export type { Decision, ReviewRow };

export type ReviewStatus = 'pending' | 'approved' | 'changes_requested';

/** The item's review status is the latest decision; an item nobody has reviewed is pending. */
export function statusOf(latest: ReviewRow | undefined): ReviewStatus {
  if (!latest) return 'pending';
  return latest.decision === 'approve' ? 'approved' : 'changes_requested';
}

export async function reviewHistory(db: Knex, accountId: string, contentId: string, page: Page) {
  await getContent(db, accountId, contentId);
  const [latest, history] = await Promise.all([
    store.latestReview(db, accountId, contentId),
    store.listReviews(db, accountId, contentId, page),
  ]);
  return { status: statusOf(latest), latest: latest ?? null, ...history };
}

export async function submitReview(
  db: Knex,
  accountId: string,
  contentId: string,
  review: { decision: Decision; note: string | null },
  reviewer: Actor,
): Promise<ReviewRow> {
  await getContent(db, accountId, contentId);
  return store.insertReview(db, accountId, {
    content_id: contentId,
    decision: review.decision,
    note: review.note,
    reviewer_type: reviewer.type,
    reviewer_id: reviewer.id,
  });
}
