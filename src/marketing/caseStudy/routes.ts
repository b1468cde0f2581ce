import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { validIdempotencyKey } from '../../http/idempotency';
import { refId } from '../../http/ids';
import type { RouteDef } from '../../http/route';
import { JOB_OPTIONS_DOC, JOB_OPTIONS_ERRORS, jobOptionFields, jobStartOptionsOf } from '../../jobs/jobOptions';
import { JobSchema } from '../../jobs/schemas';
import { jobsBaseOf, jobStartAnswer } from '../../jobs/start/answer';
import { ACCEPTED_JOB_START_HEADERS, PREFER_DOC, PREFERENCE_APPLIED_HEADER } from '../../jobs/start/docs';
import { jobWait } from '../../jobs/start/wait';
import { contentItemSchema } from '../content/contentItemJson';
import { twinRoutes } from '../twins';
import { draftCaseStudyRun } from './run';
import * as docs from './runDocs';

const tags = ['Marketing case studies'];

const draftBody = z.strictObject({
  deal_id: refId().describe('A won CRM deal of the account.'),
  grid_id: refId().nullable().optional().describe('The before/after grid whose measurable results give the numbers.'),
  testimonial_id: refId()
    .nullable()
    .optional()
    .describe('The testimonial row to quote (only with consent); its grid is used when grid_id is absent.'),
  avatar_id: refId().nullable().optional().describe('The customer avatar the case study speaks to.'),
  project_id: refId().nullable().optional().describe('A website project of the account (recorded; the job carries it as ProjectId).'),
  ...jobOptionFields,
});

const errors = [
  {
    status: 400,
    code: 'invalid_reference',
    description: "deal_id, grid_id, testimonial_id, avatar_id or project_id is not the account's (`field` names it); nothing is written.",
  },
  { status: 400, code: 'invalid_idempotency_key', description: 'Idempotency-Key is not 1..255 visible ASCII characters; nothing runs.' },
  {
    status: 409,
    code: 'deal_not_won',
    description: 'The deal is open or lost (`deal_status`); a case study needs a won deal. Nothing is written.',
  },
  { status: 409, code: 'idempotency_key_reused', description: 'The account used this key for another request; nothing runs.' },
  { status: 503, code: 'temporal_unavailable', description: 'The job engine did not answer; retry with the same key.' },
  { status: 500, code: 'job_failed', description: 'The run failed without a coded reason (details in the Temporal UI).' },
];

/** `POST /api/marketing/content/case-study` and its agent twin: a case-study draft from a won deal (start and wait). */
export function caseStudyRoutes(): RouteDef[] {
  return twinRoutes(
    {
      method: 'post',
      path: '/marketing/content/case-study',
      operationId: 'draftMarketingCaseStudy',
      tags,
      permission: 'marketing.content:create',
      summary: 'Draft a case study from a won CRM deal.',
      description: `${docs.DRAFT}\n\n${JOB_OPTIONS_DOC}\n\n${PREFER_DOC}`,
      body: draftBody,
      responses: {
        201: {
          description: 'The draft finished within the wait bound: the new content item.',
          schema: contentItemSchema,
          headers: PREFERENCE_APPLIED_HEADER,
        },
        202: {
          description: 'Still drafting past the wait bound: the job; poll `Location`.',
          schema: JobSchema,
          headers: ACCEPTED_JOB_START_HEADERS,
        },
      },
      errors: [...errors, ...JOB_OPTIONS_ERRORS],
    },
    async ({ body, auth, deps, ctx, requestId }) => {
      const header = ctx.get('idempotency-key');
      const wait = jobWait(ctx.get('prefer'), deps.config.CASE_STUDY_WAIT_SECONDS);
      const outcome = await draftCaseStudyRun(deps, {
        accountId: accountOf(auth),
        requestId,
        idempotencyKey: header ? validIdempotencyKey(header) : undefined,
        route: `POST ${auth.kind === 'agent' ? '/api/agent' : '/api'}/marketing/content/case-study`,
        dealId: body.deal_id,
        gridId: body.grid_id ?? null,
        testimonialId: body.testimonial_id ?? null,
        avatarId: body.avatar_id ?? null,
        projectId: body.project_id ?? null,
        options: await jobStartOptionsOf(deps, accountOf(auth), body),
        wait,
      });
      return jobStartAnswer(outcome, wait, { jobsBase: jobsBaseOf(auth) });
    },
  );
}
