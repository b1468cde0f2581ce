import type { ErrorSpec } from '../../http/route';
import {
  FORMS_BACKFILL_DEFAULT_LIMIT,
  FORMS_BACKFILL_MAX_LIMIT,
  FORMS_PAGE_MAX,
} from '../../../workflows/sitePlatformFormsBackfill.contract';

export const BACKFILL = `Imports the site's historical form submissions into the forms ledger (\`GET /api/forms/submissions\`) for the
project's resolved connection and bound site (override, then account default).

- Lists \`GET /sites/{site_id}/form_submissions\` (or, with \`form_id\`, \`GET /forms/{form_id}/submissions\`) ${FORMS_PAGE_MAX} at a time
  from \`offset\`, up to \`limit\` submissions (default ${FORMS_BACKFILL_DEFAULT_LIMIT}, at most ${FORMS_BACKFILL_MAX_LIMIT}; more is 400).
- Each submission gets the ledger's idempotency key \`platform:<accountId>:<submissionId>\` (the same key a delivery of it
  gets), so one already delivered or imported counts as \`already_present\`. Imported rows are \`historical: true\`: they
  start no workflow (no \`form_submitted\` trigger), create no contact and notify nobody. A submission with no id, no name
  and no timestamp is counted in \`permanent\` (with \`permanent_reasons\`) and never retried.
- Runs as a job (\`site-platform-forms-backfill\`, listed by \`GET /api/jobs\`, progress query \`importing\`). The route waits
  up to \`SITE_PLATFORM_FORMS_BACKFILL_WAIT_SECONDS\` (default 30) and answers 200 with the result, else 202 with the job.
  With \`Idempotency-Key\` the job id is \`site-platform-forms-backfill:<accountId>:<key>\`: a retry attaches to the same
  run (a finished one answers its result again); the same key with another body is 409 \`idempotency_key_reused\`.
- Rate limit (the connection's local token bucket, or the platform's 429): on the first page the answer is 429
  \`rate_limited\` with \`retry_after_seconds\` and nothing was imported; on a later page the answer is 200 with
  \`partial: true\`, \`retry_after_seconds\` and \`next_offset\` (send it as \`offset\` after the wait to continue).
- Each page commits on its own: a worker that dies mid-run resumes on the page it was on, and the idempotency key keeps
  the ledger free of duplicated rows.`;

const jobErrors: ErrorSpec[] = [
  { status: 400, code: 'invalid_idempotency_key', description: 'Idempotency-Key is not 1..255 visible ASCII characters; nothing runs.' },
  { status: 409, code: 'idempotency_key_reused', description: 'The account used this key for another backfill request; nothing runs.' },
  { status: 409, code: 'job_canceled', description: 'The job was canceled before it finished.' },
  { status: 409, code: 'job_terminated', description: 'The job was terminated before it finished.' },
  { status: 500, code: 'job_failed', description: 'The job failed without a coded reason (details in the Temporal UI).' },
  { status: 503, code: 'temporal_unavailable', description: 'The job engine did not answer; retry with the same key.' },
  { status: 504, code: 'job_timed_out', description: 'The job ran out of time.' },
];

export const BACKFILL_ERRORS: ErrorSpec[] = [
  {
    status: 400,
    code: 'validation_failed',
    description: `limit outside 1..${FORMS_BACKFILL_MAX_LIMIT}, a negative offset, an unknown field.`,
  },
  { status: 401, code: 'platform_auth', description: 'The platform rejected the stored token.' },
  { status: 404, code: 'project_not_found', description: 'Not a project of the account (or X-Account-Id names another account).' },
  { status: 404, code: 'site_not_found', description: "The project's bound site is not one of the account's sites." },
  { status: 404, code: 'resource_not_found', description: '`form_id` names no form of the site.' },
  { status: 409, code: 'project_site_not_bound', description: 'The project is bound to no platform site.' },
  {
    status: 409,
    code: 'forms_require_republish',
    description: 'The platform lists forms only after the site has been published once since they were added; publish and retry.',
  },
  { status: 412, code: 'site_platform_not_connected', description: 'No connection resolves for the project.' },
  { status: 412, code: 'missing_scopes', description: 'The connection was never granted forms:read; reconnect.' },
  { status: 429, code: 'rate_limited', description: 'The rate limit was reached on the first page; carries retry_after_seconds.' },
  { status: 502, code: 'platform_upstream', description: 'Platform 5xx or network failure (after the job retried the page).' },
  { status: 504, code: 'platform_timeout', description: 'No platform answer inside the timeout (after the job retried the page).' },
  ...jobErrors,
];
