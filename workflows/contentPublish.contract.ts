import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { defineWorkflow } from './defineWorkflow';

/** The contract of a content item's scheduled-publish entity workflow (contentPublish.ts). No I/O: `src/` imports it. */

/** Where a scheduled publish goes (the item's `deploy_target`, never `none`: a `none` date is recorded only). */
export type PublishDeployTarget = 'production' | 'staging' | 'dev' | 'publish';

/** Retry of the publish step at the time; the API fills it from config (tests shorten it). */
export interface PublishRetry {
  initialIntervalMs: number;
  maximumIntervalMs: number;
  maximumAttempts: number;
}

export interface ContentPublishInput {
  accountId: string;
  contentId: string;
  /** The linked project (search attribute ProjectId). */
  projectId: string;
  /** ISO 8601 instant the item goes live. */
  at: string;
  deployTarget: PublishDeployTarget;
  retry?: PublishRetry;
  /** Continue as new after this many date changes in one run (besides Temporal's suggestion); tests shorten it. */
  maxReschedulesPerRun?: number;
}

export type ContentPublishOutcome = 'published' | 'cancelled' | 'failed' | 'superseded' | 'gone';

export interface ContentPublishResult {
  outcome: ContentPublishOutcome;
  /** The instant the workflow held when it ended. */
  at: string;
  /** ISO instant the item was stamped published (outcome published). */
  publishedAt?: string;
  /** The coded failure (outcome failed). */
  error?: { code: string; message: string };
}

/** What the workflow holds: answered by the Updates and the `schedule` query. */
export interface ScheduleView {
  status: 'scheduled' | 'publishing' | ContentPublishOutcome;
  at: string;
  deployTarget: PublishDeployTarget;
}

export interface RescheduleRequest {
  at: string;
  deployTarget: PublishDeployTarget;
  projectId: string;
}

/** Sets (or moves) the date. Validator: `at` in the future by the workflow's clock, and the workflow still waiting. */
export const rescheduleUpdate = defineUpdate<ScheduleView, [RescheduleRequest]>('reschedule');
/** Cancels the held date. Validator: the workflow still waiting (not publishing, not ended). */
export const cancelUpdate = defineUpdate<ScheduleView, []>('cancel');
export const scheduleQuery = defineQuery<ScheduleView>('schedule');

/** Failure types the validators throw (the API maps them to coded 4xx). */
export const SCHEDULE_IN_PAST = 'ScheduleInPast';
export const SCHEDULE_NOT_WAITING = 'ScheduleNotWaiting';

export const contentPublishContract = defineWorkflow<[ContentPublishInput], ContentPublishResult>('contentPublish', 'content-publish');

/** One entity workflow per content item. */
export const contentPublishWorkflowId = (accountId: string, contentId: string) => `content-publish:${accountId}:${contentId}`;
