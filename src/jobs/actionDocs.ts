// OpenAPI prose of the replay and bulk routes (actionRoutes.ts), kept out of the route declarations.
import { MAX_BULK_CANCEL, MAX_BULK_JOB_IDS, MAX_BULK_REPLAY } from '../../workflows/jobsBulk.contract';
import { REPLAYABLE_KINDS } from './replayable';

export const replaySummary = 'Replay a failed, canceled, timed-out or terminated job as a new job with its original input.';

export const replayDescription = [
  'Starts the job again as a **new** job (a new id of the same kind): the same workflow, the original input (the first ',
  "event of the run's history), the same `content_id`, `connection_id`, `project_id`, and the old job's tags, metadata ",
  'and callback URL. The new job names the old one in `replay_of`. Answers 201 with the new job (as `GET /api/jobs/{id}` ',
  'shows it) and its address in `Location`; the old job is left as it was. ',
  `Replayable kinds: ${REPLAYABLE_KINDS.map((k) => `\`${k}\``).join(', ')}. `,
  'Other kinds answer 409 `job_not_replayable` with the reason (a webhook hand-off, a schedule sweep, a run whose ',
  'request was charged or checked at the start …). Honours `Idempotency-Key`: without one, each call starts another job.',
].join('');

export const bulkStartSummary = 'Cancel or replay many jobs of the account at once, by filter or by ids.';

export const bulkStartDescription = [
  'Give exactly one of `filter` (kind, status, from, to, tag: at least one; `{"status": "running"}` names every running ',
  `job) and \`job_ids\` (1–${MAX_BULK_JOB_IDS}). The operation only ever reaches the account's own jobs: a filter is `,
  "a visibility query of the account's jobs, and a listed id of another account counts as failed exactly like a missing one.\n\n",
  "**cancel** requests cancellation of the running jobs through Temporal's batch operation (a job counts as succeeded ",
  "once cancellation is requested; it winds down on its own). Listed ids that are missing, another account's or not ",
  `running count as failed. A filter matching more than ${MAX_BULK_CANCEL} running jobs is 422 \`bulk_too_many_jobs\`.\n\n`,
  '**replay** replays each failed, canceled, timed-out or terminated job of a replayable kind as `POST /api/jobs/{id}/replay` ',
  `does, a few at a time. A filter matching more than ${MAX_BULK_REPLAY} such jobs is 422 \`bulk_too_many_jobs\`; `,
  'listed ids that cannot be replayed (missing, running, completed, not replayable) count as failed.\n\n',
  'Answers 202 with the operation (`total` is the count matched at the start) and `Location`; poll ',
  '`GET /api/jobs/bulk/{id}`. The operation is itself a job of kind `jobs-bulk` (it shows in `GET /api/jobs`, and a bulk ',
  'cancel never cancels one). Honours `Idempotency-Key`.',
].join('');

export const bulkGetSummary = 'A bulk operation: its status and counts.';

export const bulkGetDescription =
  'Counts so far while `running`, final once `completed`. `failed` means the operation itself failed; jobs it could not ' +
  'act on are counted in `failed` of a completed operation. Counts read 0 for a moment while no worker answers.';
