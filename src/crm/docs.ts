// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.
import { DEFAULT_LIMIT, MAX_LIMIT } from '../http/pagination';

export const invalidReferenceError =
  "`contactId` or `stageId` names nothing in your account (missing or another account's); `field` says which. Nothing is changed.";

export const listCrmPipelineStagesDescription =
  'Every account has one default pipeline, created on first use with the stages Lead, Qualified, Proposal, Negotiation (open), Won (won) and Lost (lost). Answers `{ data: [stage] }` ordered by `position`; the list is not paginated and takes no query parameters.';

export const moveCrmContactDescription =
  'A contact is in at most one stage of a pipeline: moving it takes it out of its previous stage. `movedAt` is when it entered the stage; moving it to the stage it is already in changes nothing and keeps `movedAt`. A `contactId` or `stageId` that names nothing in your account is 400 `invalid_reference` with `field`.';

export const contactEmailTakenError = 'Another contact of the account has this email; `contactId` names it.';

export const listCrmContactsDescription =
  `Answers \`{ contacts, total, page, limit }\`; \`total\` counts every match. Ordered by \`createdAt\` descending. ` +
  `\`page\` defaults to 1, \`limit\` to ${DEFAULT_LIMIT} (maximum ${MAX_LIMIT}); out-of-range values are 400. ` +
  'Search and tag filters combine (AND).';

export const createCrmContactDescription =
  'At least one of `name` and `email` is required; every other field is optional. Text fields are trimmed and an empty string counts as absent. `source` is `api`.';

export const updateCrmContactDescription =
  'Send only the fields to change: an absent field stays, `null` (or "") clears an optional field. An empty body changes nothing and returns the contact. The contact must keep a name or an email.';

export const deleteCrmContactDescription =
  'Also deletes its activities and its place in the pipeline; its tasks and deals stay, with `contactId` null.';

export const listCrmContactActivitiesDescription =
  'Answers `{ data, total, page, limit }` ordered by `occurredAt` descending. `page` defaults to 1, `limit` to 25 (maximum 100).';

export const addCrmContactActivityDescription =
  '201 with the new activity. With an `externalId` already used in the account, nothing is written and the existing activity is answered unchanged with 200 (an idempotent upsert keyed by `externalId`).';

export const addCrmContactActivityResponsesR200Description = 'An activity with this `externalId` already existed; it is returned unchanged';

export const invalidReferenceError2 = '`contactId` or `stageId` names nothing in your account; `field` says which. Nothing is written.';

export const listCrmDealsDescription =
  'Answers `{ data, total, page, limit }`, ordered by `createdAt` descending. `page` defaults to 1, `limit` to 25 (maximum 100).';

export const createCrmDealDescription =
  '`title` and `currency` are required; `amount` defaults to 0. A deal created in a `won` stage gets `wonAt` now.';

export const updateCrmDealSummary = 'Update a deal, e.g. move it to another stage.';

export const updateCrmDealDescription =
  'Partial: an absent field stays; null clears `contactId` and the attribution fields. Moving into a `won` stage sets `wonAt` (kept when moving between won stages); into an open or lost stage clears it.';

export const invalidReferenceError3 = '`contactId` or `assignedTo` names nothing in your account; `field` says which. Nothing is written.';

export const listCrmTasksDescription =
  'Answers `{ data, total, page, limit }`. Ordered by `dueDate` ascending, tasks without a due date last, then newest first. Filters combine (AND). `page` defaults to 1, `limit` to 25 (maximum 100).';

export const createCrmTaskDescription =
  '`title` is required; `contactId`, `dueDate` and `assignedTo` are optional. A new task is `open`; `createdBy` is the caller.';

export const updateCrmTaskSummary = 'Update a task, e.g. mark it done.';

export const updateCrmTaskDescription =
  'Partial: an absent field stays, null clears `contactId`, `dueDate` or `assignedTo`. `{ "status": "done" }` completes the task.';
