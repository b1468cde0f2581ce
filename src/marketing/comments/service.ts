import type { Knex } from '../../db/knex';
import type { Page } from '../../http/pagination';
import type { Actor } from '../actor';
import { getContent } from '../content/service';
import * as store from './store';
import type { CommentRow } from './store';

export type { CommentRow };

export async function listComments(db: Knex, accountId: string, contentId: string, page: Page) {
  await getContent(db, accountId, contentId);
  return store.listComments(db, accountId, contentId, page);
}

/** A comment on an item of the account, by the caller (a user or an agent key). */
export async function addComment(db: Knex, accountId: string, contentId: string, body: string, author: Actor): Promise<CommentRow> {
  await getContent(db, accountId, contentId);
  return store.insertComment(db, accountId, { content_id: contentId, body, author_type: author.type, author_id: author.id });
}
