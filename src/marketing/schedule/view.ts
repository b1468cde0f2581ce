import { z } from 'zod';
import { contentPublishWorkflowId } from '../../../workflows/contentPublish.contract';
import type { Knex } from '../../db/knex';
import { DEPLOY_TARGETS } from '../content/contentItemJson';
import { findScheduleRow, type ScheduleRow } from './store';

export const scheduledPublishSchema = z
  .object({
    at: z.string().describe('The scheduled instant (for `failed`: the instant the failed publish was scheduled for).'),
    status: z
      .enum(['scheduled', 'recorded_only', 'failed'])
      .describe(
        "`scheduled`: the item's publish workflow holds the date and publishes it then. `recorded_only`: the date is stored but nothing " +
          'publishes it (deploy_target `none`, no cms_link, or a date from before scheduled publishing that no write re-armed). `failed`: the last scheduled publish kept failing after its retries (see error; an inbox item was raised).',
      ),
    executes: z.boolean().describe('True exactly when a workflow holds the date (status `scheduled`).'),
    deploy_target: z.enum(DEPLOY_TARGETS),
    job_id: z.string().nullable().describe('The publish workflow (`GET /api/jobs/{id}`, kind `content-publish`); null when recorded_only.'),
    failed_at: z.string().optional().describe('failed only: when the publish was given up.'),
    error: z.object({ code: z.string(), message: z.string() }).optional().describe('failed only: the coded platform failure.'),
  })
  .meta({ id: 'ScheduledPublish' })
  .nullable()
  .describe('The pending (or last failed) scheduled publish; null when nothing is scheduled and no scheduled publish failed.');

/** The item's schedule as the agent routes report it. */
export type ScheduledPublish = NonNullable<z.output<typeof scheduledPublishSchema>>;

interface ScheduledFailure {
  code?: unknown;
  message?: unknown;
  scheduled_for?: unknown;
  job_id?: unknown;
}

/** From the row's schedule columns: a stored date first, else a failed scheduled publish (publish_error.scheduled_for). */
export function scheduledPublishOfRow(accountId: string, contentId: string, row: ScheduleRow): ScheduledPublish | null {
  if (row.scheduled_publish_at) {
    return {
      at: row.scheduled_publish_at.toISOString(),
      status: row.schedule_executes ? 'scheduled' : 'recorded_only',
      executes: row.schedule_executes,
      deploy_target: row.deploy_target,
      job_id: row.schedule_executes ? contentPublishWorkflowId(accountId, contentId) : null,
    };
  }
  const failure = row.publish_error as ScheduledFailure | null;
  // publish-to-site failures carry no scheduled_for: they are no scheduled publish.
  if (row.publish_failed_at && failure && typeof failure.scheduled_for === 'string') {
    return {
      at: failure.scheduled_for,
      status: 'failed',
      executes: false,
      deploy_target: row.deploy_target,
      job_id: typeof failure.job_id === 'string' ? failure.job_id : contentPublishWorkflowId(accountId, contentId),
      failed_at: row.publish_failed_at.toISOString(),
      error: { code: String(failure.code ?? 'publish_failed'), message: String(failure.message ?? '') },
    };
  }
  return null;
}

export async function scheduledPublishOf(db: Knex, accountId: string, contentId: string): Promise<ScheduledPublish | null> {
  const row = await findScheduleRow(db, accountId, contentId);
  return row ? scheduledPublishOfRow(accountId, contentId, row) : null;
}
