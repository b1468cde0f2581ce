import { failScheduledPublish, type ScheduledFailure } from '../src/marketing/schedule/failScheduled';
import { publishAtTime, type PublishDeps, type ScheduledPublishRequest } from '../src/marketing/schedule/publishAtTime';
import { revalidationBatcher } from '../src/marketing/schedule/revalidationBatch';
import type { ActivityDeps } from './deps';
import { siteDepsOf, workflowActor } from './siteDeps';

/**
 * Side effects of the content-publish workflow. At the time, a first step (run as a local activity: a few row reads
 * and writes and at most one bounded revalidation post) checks the row and publishes a native-CMS item; an item on
 * the platform CMS is answered `platform` and published by the second step, a regular activity, audited as
 * `workflow:<workflowId>:<runId>` (the calling run, read from the activity's context). Then the failure record once
 * retries are spent.
 */
export function createContentPublishActivities(deps: ActivityDeps) {
  // Assigned onto the deps object so its secretHashKey getter stays a getter.
  const site: PublishDeps = Object.assign(siteDepsOf(deps), { revalidate: revalidationBatcher(deps) });
  return {
    publishScheduledNative: (req: ScheduledPublishRequest) => publishAtTime(site, req, null),
    publishScheduledContent: (req: ScheduledPublishRequest) => {
      const actor = workflowActor();
      return publishAtTime(site, req, async () => actor);
    },
    failScheduledPublish: (failure: ScheduledFailure) => failScheduledPublish(deps.db, failure),
  };
}
