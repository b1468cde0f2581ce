import type { Knex } from '../../db/knex';
import { offsetOf, type Page } from '../../http/pagination';

export type Decision = 'approve' | 'request_changes';

export interface ReviewRow {
  id: string;
  account_id: string;
  content_id: string;
  decision: Decision;
  note: string | null;
  reviewer_type: 'user' | 'agent' | 'system';
  reviewer_id: string | null;
  created_at: Date;
}

export type NewReview = Pick<ReviewRow, 'content_id' | 'decision' | 'note' | 'reviewer_type' | 'reviewer_id'>;

const reviewsOf = (db: Knex, accountId: string, contentId: string) =>
  db('content_reviews').where({ account_id: accountId, content_id: contentId });

/** Newest first; the latest review sets the item's review status. */
export async function listReviews(db: Knex, accountId: string, contentId: string, page: Page) {
  const [rows, [{ count }]] = await Promise.all([
    reviewsOf(db, accountId, contentId)
      .select('*')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)) as Promise<ReviewRow[]>,
    reviewsOf(db, accountId, contentId).count({ count: '*' }) as unknown as Promise<{ count: number }[]>,
  ]);
  return { rows, total: Number(count) };
}

export async function latestReview(db: Knex, accountId: string, contentId: string): Promise<ReviewRow | undefined> {
  return reviewsOf(db, accountId, contentId)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first();
}

export async function insertReview(db: Knex, accountId: string, review: NewReview): Promise<ReviewRow> {
  const [row] = await db('content_reviews')
    .insert({ account_id: accountId, ...review })
    .returning('*');
  return row;
}
