import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  log,
  makeContinueAsNewFunc,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  TimeoutFailure,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  cancelUpdate,
  rescheduleUpdate,
  scheduleQuery,
  SCHEDULE_IN_PAST,
  SCHEDULE_NOT_WAITING,
  type ContentPublishInput,
  type ContentPublishResult,
  type PublishRetry,
  type RescheduleRequest,
  type ScheduleView,
} from './contentPublish.contract';
import { trackProgress } from './progress';
import { ProjectIdKey } from './searchAttributes';

/** The publish step's retry when the input carries none (the API fills it from CONTENT_PUBLISH_RETRY_*). */
export const DEFAULT_PUBLISH_RETRY: PublishRetry = { initialIntervalMs: 5_000, maximumIntervalMs: 300_000, maximumAttempts: 8 };

const { failScheduledPublish } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 20 },
});

const STABLE_CODE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** The coded error of a publish whose retries are spent (the activity's ApplicationFailure type is the ApiError code). */
function failureOf(err: ActivityFailure): { code: string; message: string } {
  const cause = err.cause;
  if (cause instanceof ApplicationFailure && cause.type && STABLE_CODE.test(cause.type))
    return { code: cause.type, message: cause.message };
  if (cause instanceof TimeoutFailure) return { code: 'publish_timeout', message: 'the publish did not finish in time on any attempt' };
  return { code: 'publish_failed', message: cause?.message || err.message };
}

/**
 * One content item's scheduled publish (`content-publish:<accountId>:<contentId>`): a reschedulable timer (the
 * updatable-timer pattern: wait on `condition(changed, deadline - now)`), moved by the `reschedule` Update and ended by
 * `cancel`, both validated so an invalid change is refused without touching history. At the deadline the
 * publishScheduledContent activity publishes (retried per input.retry); its outcome ends the run — published, gone,
 * superseded (the row no longer holds this date; a different armed date in the row is adopted and waited for) — or,
 * once retries are spent, failScheduledPublish records the failure and the run ends `failed`.
 */
export async function contentPublish(input: ContentPublishInput): Promise<ContentPublishResult> {
  const held: RescheduleRequest = { at: input.at, deployTarget: input.deployTarget, projectId: input.projectId };
  let status: ScheduleView['status'] = 'scheduled';
  let changed = false;
  const view = (): ScheduleView => ({ status, at: held.at, deployTarget: held.deployTarget });
  const progress = trackProgress('waiting', 1);

  const hold = (next: RescheduleRequest) => {
    if (next.projectId !== held.projectId) upsertSearchAttributes([{ key: ProjectIdKey, value: next.projectId }]);
    // The same date again (an update-with-start on a fresh run repeats its start args) changes nothing.
    if (next.at === held.at && next.deployTarget === held.deployTarget && next.projectId === held.projectId) return;
    Object.assign(held, { at: next.at, deployTarget: next.deployTarget, projectId: next.projectId });
    changed = true;
  };
  const requireWaiting = () => {
    if (status !== 'scheduled') {
      throw ApplicationFailure.create({
        type: SCHEDULE_NOT_WAITING,
        message: `the schedule is ${status}, no longer waiting`,
        nonRetryable: true,
      });
    }
  };
  setHandler(scheduleQuery, view);
  setHandler(
    rescheduleUpdate,
    (req) => {
      hold(req);
      return view();
    },
    {
      validator: (req) => {
        requireWaiting();
        if (!(Date.parse(req.at) > Date.now())) {
          throw ApplicationFailure.create({ type: SCHEDULE_IN_PAST, message: `${req.at} is not in the future`, nonRetryable: true });
        }
      },
    },
  );
  setHandler(
    cancelUpdate,
    () => {
      status = 'cancelled';
      changed = true;
      return view();
    },
    { validator: requireWaiting },
  );

  const retry = input.retry ?? DEFAULT_PUBLISH_RETRY;
  const retryPolicy = {
    initialInterval: retry.initialIntervalMs,
    maximumInterval: Math.max(retry.initialIntervalMs, retry.maximumIntervalMs),
    maximumAttempts: retry.maximumAttempts,
    backoffCoefficient: 2,
  };
  // The first step is short (row reads and writes, one revalidation post bounded at 5 s): a local activity, so a
  // native-CMS publish costs the server no activity task. The platform publish (several platform calls) is a regular one.
  const { publishScheduledNative } = proxyLocalActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: retryPolicy });
  const { publishScheduledContent } = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', retry: retryPolicy });
  const end = (result: ContentPublishResult): ContentPublishResult => {
    status = result.outcome;
    progress.current.phase = result.outcome;
    return result;
  };

  let reschedules = 0;
  for (;;) {
    // Wait until the held instant; a reschedule wakes the wait and it starts over with the new deadline.
    for (;;) {
      changed = false;
      const remaining = Date.parse(held.at) - Date.now();
      if (remaining > 0) await condition(() => changed, remaining);
      if ((status as ScheduleView['status']) === 'cancelled') return end({ outcome: 'cancelled', at: held.at });
      if (!changed) break;
      reschedules++;
      if (workflowInfo().continueAsNewSuggested || reschedules >= (input.maxReschedulesPerRun ?? Infinity)) {
        await condition(allHandlersFinished);
        const next = makeContinueAsNewFunc<typeof contentPublish>({ typedSearchAttributes: workflowInfo().typedSearchAttributes });
        return next({ ...input, ...held });
      }
    }

    status = 'publishing';
    progress.current.phase = 'publishing';
    const { workflowId } = workflowInfo();
    try {
      const request = { accountId: input.accountId, contentId: input.contentId, ...held };
      const first = await publishScheduledNative(request);
      const done = first.outcome === 'platform' ? await publishScheduledContent(request) : first;
      if (done.outcome === 'published') {
        for (const warning of done.warnings) progress.warn(warning);
        progress.advance();
        return end({ outcome: 'published', at: held.at, publishedAt: done.publishedAt });
      }
      if (done.outcome === 'gone') return end({ outcome: 'gone', at: held.at });
      if (!done.armed) return end({ outcome: 'superseded', at: held.at });
      log.info('the row holds another armed date; waiting for it', { contentId: input.contentId, from: held.at, to: done.armed.at });
      hold(done.armed);
      status = 'scheduled';
      progress.current.phase = 'waiting';
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      const error = failureOf(err);
      try {
        await failScheduledPublish({ accountId: input.accountId, contentId: input.contentId, at: held.at, jobId: workflowId, ...error });
      } catch (recordErr) {
        if (!(recordErr instanceof ActivityFailure)) throw recordErr;
        log.error('the failed scheduled publish could not be recorded', { contentId: input.contentId, code: error.code });
      }
      return end({ outcome: 'failed', at: held.at, error });
    }
  }
}
