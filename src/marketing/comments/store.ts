import type { Knex } from '../../db/knex';
import { offsetOf, type Page } from '../../http/pagination';

export interface CommentRow {
  id: string;
  account_id: string;
  content_id: string;
  body: string;
  author_type: 'user' | 'agent' | 'system';
  author_id: string | null;
  created_at: Date;
}

export type NewComment = Pick<CommentRow, 'content_id' | 'body' | 'author_type' | 'author_id'>;

const commentsOf = (db: Knex, accountId: string, contentId: string) =>
  db('content_comments').where({ account_id: accountId, content_id: contentId });

/** Oldest first, so a thread reads top to bottom. */
export async function listComments(db: Knex, accountId: string, contentId: string, page: Page) {
  const [rows, [{ count }]] = await Promise.all([
    commentsOf(db, accountId, contentId)
      .select('*')
      .orderBy([
        { column: 'created_at', order: 'asc' },
        { column: 'id', order: 'asc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)) as Promise<CommentRow[]>,
    commentsOf(db, accountId, contentId).count({ count: '*' }) as unknown as Promise<{ count: number }[]>,
  ]);
  return { rows, total: Number(count) };
}

export async function insertComment(db: Knex, accountId: string, comment: NewComment): Promise<CommentRow> {
  const [row] = await db('content_comments')
    .insert({ account_id: accountId, ...comment })
    .returning('*');
  return row;
}
