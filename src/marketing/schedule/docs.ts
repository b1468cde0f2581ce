// OpenAPI prose of the schedule sub-resource, kept out of the route declarations so they read as code.

export const scheduleRule =
  "A date is held by the item's publish workflow (`content-publish:<account>:<item>`, kind `content-publish` in `GET /api/jobs`) when it " +
  'is in the future, the item is linked (`cms_link`) and its `deploy_target` is not `none`; the workflow publishes the item at that ' +
  'instant (platform CMS entry published, or the native CMS status with a deployment revalidation) and stamps it `published`. ' +
  'With `deploy_target: none` the date is recorded only (nothing publishes it). The request is answered only after the workflow ' +
  'accepted the change, inside the same database transaction: when the job engine cannot be reached the answer is 503 ' +
  '`temporal_unavailable` and nothing is written (no queue: retry). The first schedule of a linked item without a site entry, on a ' +
  'project whose content source is the platform CMS, creates the entry as a draft first (not live until the time) and records its id in `cms_link.item_id`.';

export const postScheduleSummary = 'Schedule (or reschedule) the publish of a content item (agent).';
export const postScheduleDescription =
  '`scheduled_publish_at` (ISO 8601 with a zone, in the future) sets or moves the date; `deploy_target` optionally changes where it ' +
  'publishes. The same instant as the stored one is an echo: nothing changes and the current schedule is answered (200). A write ' +
  'goes through the item update, so it writes a version row as PATCH does. ' +
  scheduleRule +
  ' Answers `{ data: scheduled_publish, item }` (data as the agent get reports it).';

export const deleteScheduleSummary = 'Cancel the scheduled publish of a content item (agent).';
export const deleteScheduleDescription =
  'Clears `scheduled_publish_at` and cancels the workflow that held it (as `cancel_scheduled_publish: true` on PATCH). Idempotent: ' +
  'with nothing scheduled it changes nothing and answers 200 the same way. Answers `{ data, item }`: data is null, or the last ' +
  'failed scheduled publish (status `failed`) which a cancel leaves on record. A publish running right now cannot be cancelled ' +
  '(409 `schedule_publishing`).';
