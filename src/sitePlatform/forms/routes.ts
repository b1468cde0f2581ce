import { z } from 'zod';
import { validIdempotencyKey } from '../../http/idempotency';
import { route, type RouteDef } from '../../http/route';
import { JOB_OPTIONS_DOC, JOB_OPTIONS_ERRORS, jobOptionFields, jobStartOptionsOf } from '../../jobs/jobOptions';
import { JobSchema } from '../../jobs/schemas';
import { jobStartAnswer } from '../../jobs/start/answer';
import { ACCEPTED_JOB_START_HEADERS, PREFER_DOC, PREFERENCE_APPLIED_HEADER } from '../../jobs/start/docs';
import { jobWait } from '../../jobs/start/wait';
import { FORMS_BACKFILL_DEFAULT_LIMIT, FORMS_BACKFILL_MAX_LIMIT } from '../../../workflows/sitePlatformFormsBackfill.contract';
import { builderAccount } from '../operations/projectAccount';
import * as docs from './docs';
import { startFormsBackfill } from './service';

const projectParams = z.object({ projectId: z.string() });

const backfillBody = z
  .strictObject({
    limit: z
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .max(FORMS_BACKFILL_MAX_LIMIT, { error: `must be at most ${FORMS_BACKFILL_MAX_LIMIT}` })
      .default(FORMS_BACKFILL_DEFAULT_LIMIT)
      .describe(`Submissions to import at most, 1..${FORMS_BACKFILL_MAX_LIMIT} (default ${FORMS_BACKFILL_DEFAULT_LIMIT}).`),
    offset: z
      .int({ error: 'must be a whole number' })
      .min(0, { error: 'must be at least 0' })
      .max(1_000_000, { error: 'must be at most 1000000' })
      .default(0)
      .describe("Where in the platform's list to start (a previous answer's `next_offset`); default 0."),
    form_id: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe("Only this form's submissions (the platform's form id, as `form_list` answers it); the whole site's when absent."),
    ...jobOptionFields,
  })
  .default({ limit: FORMS_BACKFILL_DEFAULT_LIMIT, offset: 0 });

const resultSchema = z
  .object({
    site_id: z.string(),
    form_id: z.string().nullable(),
    fetched: z.number().int().describe('Submissions the platform listed in this run.'),
    imported: z.number().int().describe('New ledger rows (historical).'),
    already_present: z.number().int().describe('Submissions the ledger already held (delivered or imported before).'),
    permanent: z.number().int().describe('Submissions with no id, no name and no timestamp: reported, not retried.'),
    permanent_reasons: z.array(z.string()).describe('The first reasons of those (at most 10).'),
    partial: z.boolean().describe('The rate limit stopped the run on a later page.'),
    retry_after_seconds: z.number().nullable().describe('With partial: how long to wait before continuing.'),
    next_offset: z.number().int().nullable().describe('Send as `offset` to continue; null when the listing was read to its end.'),
    platform_total: z.number().int().nullable().describe("The platform's count for the listing, when reported."),
  })
  .meta({ id: 'FormsBackfillResult' });

/** `POST /api/builder/site-platform/{projectId}/forms/backfill`. */
export function sitePlatformFormsRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path: '/api/builder/site-platform/{projectId}/forms/backfill',
        operationId: 'sitePlatformFormsBackfill',
        summary: "Import a project's site's historical form submissions into the forms ledger",
        description: `${docs.BACKFILL}\n\n${JOB_OPTIONS_DOC}\n\n${PREFER_DOC}`,
        tags: ['Site platform'],
        auth: { kind: 'sessionOrAgentSecret' },
        params: projectParams,
        body: backfillBody,
        responses: {
          200: {
            description: 'The backfill finished within the wait bound (partial or not): its counts.',
            schema: resultSchema,
            headers: PREFERENCE_APPLIED_HEADER,
          },
          202: {
            description: 'Still running past the wait bound: the job; poll `Location`.',
            schema: JobSchema,
            headers: ACCEPTED_JOB_START_HEADERS,
          },
        },
        errors: [...docs.BACKFILL_ERRORS, ...JOB_OPTIONS_ERRORS],
      },
      async ({ params, body, auth, deps, ctx, requestId }) => {
        const accountId = await builderAccount(deps.db, auth, params.projectId, ctx.get('x-account-id') || undefined);
        const header = ctx.get('idempotency-key');
        const wait = jobWait(ctx.get('prefer'), deps.config.SITE_PLATFORM_FORMS_BACKFILL_WAIT_SECONDS);
        const outcome = await startFormsBackfill(deps, {
          accountId,
          projectId: params.projectId,
          requestId,
          idempotencyKey: header ? validIdempotencyKey(header) : undefined,
          limit: body.limit,
          offset: body.offset,
          formId: body.form_id ?? null,
          options: await jobStartOptionsOf(deps, accountId, body),
          wait,
        });
        return jobStartAnswer(outcome, wait, { finished: 200 });
      },
    ),
  ];
}
