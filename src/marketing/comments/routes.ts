import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { requiredText } from '../../http/fields';
import { idParams } from '../../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../../http/pagination';
import type { RouteDef } from '../../http/route';
import { actorOf, actorSchema } from '../actor';
import { twinRoutes } from '../twins';
import * as comments from './service';
import type { CommentRow } from './service';
import * as docs from './docs';

const tags = ['Marketing content'];
export const MAX_COMMENT_LENGTH = 10_000;

const createBody = z.strictObject({
  body: requiredText(MAX_COMMENT_LENGTH).describe(
    `The comment: plain text, trimmed, 1 to ${MAX_COMMENT_LENGTH.toLocaleString('en-US')} characters.`,
  ),
});

const commentSchema = z
  .object({
    id: z.string(),
    content_id: z.string(),
    body: z.string(),
    author: actorSchema,
    created_at: z.string(),
  })
  .meta({ id: 'Comment' });

const toCommentJson = (c: CommentRow): z.infer<typeof commentSchema> => ({
  id: c.id,
  content_id: c.content_id,
  body: c.body,
  author: { type: c.author_type, id: c.author_id },
  created_at: c.created_at.toISOString(),
});

const notFound = {
  status: 404,
  code: 'content_not_found',
  description: 'No content item with this id in your account (also for a malformed id).',
};

/** The comment thread of a content item. Comments are immutable once written. */
export function commentRoutes(): RouteDef[] {
  return [
    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/content/{id}/comments',
        operationId: 'listMarketingContentComments',
        tags,
        permission: 'marketing.content:read',
        summary: 'List the comments on an item, oldest first.',
        description: docs.listMarketingContentCommentsDescription,
        params: idParams,
        query: z.strictObject({ ...pageQuery }),
        responses: { 200: { description: 'A page of comments', schema: listEnvelopeSchema(commentSchema) } },
        errors: [notFound],
      },
      async ({ params, query, auth, deps }) => {
        const { rows, total } = await comments.listComments(deps.db, accountOf(auth), params.id, query);
        return { body: listEnvelope(rows.map(toCommentJson), total, query) };
      },
    ),

    ...twinRoutes(
      {
        method: 'post',
        path: '/marketing/content/{id}/comments',
        operationId: 'addMarketingContentComment',
        tags,
        permission: 'marketing.content:update',
        idempotent: true,
        summary: 'Comment on an item.',
        description: docs.addMarketingContentCommentDescription,
        params: idParams,
        body: createBody,
        responses: { 201: { description: 'The comment', schema: commentSchema } },
        errors: [notFound],
      },
      async ({ params, body, auth, deps }) => {
        const row = await comments.addComment(deps.db, accountOf(auth), params.id, body.body, actorOf(auth));
        return { status: 201, body: toCommentJson(row) };
      },
    ),
  ];
}
