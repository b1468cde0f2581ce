import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { route, type RouteDef } from '../../http/route';
import { actorOf } from '../actor';
import { errorSpecs } from '../content/errors';
import { contentItemSchema, DEPLOY_TARGETS } from '../content/contentItemJson';
import { contentIdParams } from '../content/schemas';
import { updateContent } from '../content/service';
import { scheduleWriteErrorSpecs, stageErrorSpecs } from './errors';
import { scheduledPublishOf, scheduledPublishSchema } from './view';
import * as docs from './docs';

const tags = ['Marketing content'];
const auth = { kind: 'agent', permission: 'marketing.content:update' } as const;
const path = '/api/agent/marketing/content/{contentId}/schedule';

const scheduleBody = z.strictObject({
  scheduled_publish_at: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 timestamp with a time zone' })
    .describe('The instant the item goes live; in the future (400 otherwise) unless it equals the stored one (echo).'),
  deploy_target: z.enum(DEPLOY_TARGETS).optional().describe('Where it publishes; `none` records the date only. Absent: unchanged.'),
});

const answerSchema = z.object({ data: scheduledPublishSchema, item: contentItemSchema }).meta({ id: 'ContentSchedule' });

export function scheduleRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path,
        operationId: 'scheduleMarketingContentAgent',
        tags,
        auth,
        summary: docs.postScheduleSummary,
        description: docs.postScheduleDescription,
        params: contentIdParams,
        body: scheduleBody,
        responses: { 200: { description: 'The schedule after the request, and the item', schema: answerSchema } },
        errors: [errorSpecs.notFound, errorSpecs.notLinked, ...scheduleWriteErrorSpecs, ...stageErrorSpecs],
      },
      async ({ params, body, auth: who, deps }) => {
        const accountId = accountOf(who);
        const item = await updateContent(deps, accountId, params.contentId, body, 'top_level', actorOf(who));
        return { body: { data: await scheduledPublishOf(deps.db, accountId, item.id), item } };
      },
    ),
    route(
      {
        method: 'delete',
        path,
        operationId: 'unscheduleMarketingContentAgent',
        tags,
        auth,
        summary: docs.deleteScheduleSummary,
        description: docs.deleteScheduleDescription,
        params: contentIdParams,
        responses: {
          200: { description: 'The schedule after the cancel (null, or a failed one on record), and the item', schema: answerSchema },
        },
        errors: [
          errorSpecs.notFound,
          ...scheduleWriteErrorSpecs.filter((e) => e.code === 'schedule_publishing' || e.code === 'temporal_unavailable'),
        ],
      },
      async ({ params, auth: who, deps }) => {
        const accountId = accountOf(who);
        const item = await updateContent(deps, accountId, params.contentId, { cancel_scheduled_publish: true }, 'top_level', actorOf(who));
        return { body: { data: await scheduledPublishOf(deps.db, accountId, item.id), item } };
      },
    ),
  ];
}
