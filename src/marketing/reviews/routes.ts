import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { optionalText } from '../../http/fields';
import { idParams } from '../../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../../http/pagination';
import type { RouteDef } from '../../http/route';
import { actorOf, actorSchema } from '../actor';
import { twinRoutes } from '../twins';
import * as reviews from './service';
import type { ReviewRow } from './service';
import * as docs from './docs';

const tags = ['Marketing content'];
const MAX_NOTE_LENGTH = 10_000;

const submitBody = z
  .strictObject({
    decision: z.enum(['approve', 'request_changes']).describe('`approve`, or `request_changes` (which needs a `note`).'),
    note: optionalText(MAX_NOTE_LENGTH)
      .optional()
      .describe(
        `What to change, or a remark on an approval: trimmed, at most ${MAX_NOTE_LENGTH.toLocaleString('en-US')} characters. Required with request_changes.`,
      ),
  })
  .superRefine((b, ctx) => {
    if (b.decision === 'request_changes' && !b.note)
      ctx.addIssue({ code: 'custom', path: ['note'], message: 'required when decision is request_changes: say what to change' });
  });

const reviewSchema = z
  .object({
    id: z.string(),
    content_id: z.string(),
    decision: z.enum(['approve', 'request_changes']),
    note: z.string().nullable(),
    reviewer: actorSchema,
    created_at: z.string(),
  })
  .meta({ id: 'Review' });

const statusSchema = z
  .enum(['pending', 'approved', 'changes_requested'])
  .describe('`pending` until the first review; afterwards the latest decision: `approved` or `changes_requested`.');

const toReviewJson = (r: ReviewRow): z.infer<typeof reviewSchema> => ({
  id: r.id,
  content_id: r.content_id,
  decision: r.decision,
  note: r.note,
  reviewer: { type: r.reviewer_type, id: r.reviewer_id },
  created_at: r.created_at.toISOString(),
});

const notFound = {
  status: 404,
  code: 'content_not_found',
  description: 'No content item with this id in your account (also for a malformed id).',
};

/** Review decisions on a content item: an append-only history whose latest entry is the item's review status. */
export function reviewRoutes(): RouteDef[] {
  return [
    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/content/{id}/reviews',
        operationId: 'getMarketingContentReviews',
        tags,
        permission: 'marketing.content:read',
        summary: 'Review status and history of an item.',
        description: docs.getMarketingContentReviewsDescription,
        params: idParams,
        query: z.strictObject({ ...pageQuery }),
        responses: {
          200: {
            description: 'Status and history',
            schema: z
              .object({
                status: statusSchema,
                latest: reviewSchema.nullable(),
                ...listEnvelopeSchema(reviewSchema, 'history').shape,
              })
              .meta({ id: 'ContentReviewHistory' }),
          },
        },
        errors: [notFound],
      },
      async ({ params, query, auth, deps }) => {
        const { status, latest, rows, total } = await reviews.reviewHistory(deps.db, accountOf(auth), params.id, query);
        return {
          body: { status, latest: latest && toReviewJson(latest), ...listEnvelope(rows.map(toReviewJson), total, query, 'history') },
        };
      },
    ),

    ...twinRoutes(
      {
        method: 'post',
        path: '/marketing/content/{id}/reviews',
        operationId: 'submitMarketingContentReview',
        tags,
        permission: 'marketing.content:update',
        idempotent: true,
        summary: 'Approve an item or request changes.',
        description: docs.submitMarketingContentReviewDescription,
        params: idParams,
        body: submitBody,
        responses: {
          201: {
            description: 'The review and the status it set',
            schema: z.object({ review: reviewSchema, status: statusSchema }).meta({ id: 'ReviewSubmission' }),
          },
        },
        errors: [notFound],
      },
      async ({ params, body, auth, deps }) => {
        const row = await reviews.submitReview(
          deps.db,
          accountOf(auth),
          params.id,
          { decision: body.decision, note: body.note ?? null },
          actorOf(auth),
        );
        return { status: 201, body: { review: toReviewJson(row), status: reviews.statusOf(row) } };
      },
    ),
  ];
}
