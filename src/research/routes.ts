import { z } from 'zod';
import { accountOf } from '../auth/authenticate';
import { optionalText, requiredText } from '../http/fields';
import { validIdempotencyKey } from '../http/idempotency';
import { idParams, refId } from '../http/ids';
import { route, type RouteDef } from '../http/route';
import { JOB_OPTIONS_DOC, JOB_OPTIONS_ERRORS, jobOptionFields, jobStartOptionsOf } from '../jobs/jobOptions';
import { JobSchema } from '../jobs/schemas';
import { jobsBaseOf, jobStartAnswer } from '../jobs/start/answer';
import { ACCEPTED_JOB_START_HEADERS, PREFER_DOC, PREFERENCE_APPLIED_HEADER } from '../jobs/start/docs';
import { jobWait } from '../jobs/start/wait';
import { errorSpecs } from '../marketing/content/errors';
import { twinRoutes } from '../marketing/twins';
import { DEFAULT_MAX_SOURCES, MAX_SOURCES } from '../../workflows/research.contract';
import * as docs from './docs';
import { ResearchResultSchema, StoredResearchSchema } from './result';
import { getResearch, researchContent, researchTopic } from './service';

const tags = ['Marketing research'];

const maxSources = z
  .int({ error: 'must be a whole number' })
  .min(1, { error: 'must be at least 1' })
  .max(MAX_SOURCES, { error: `must be at most ${MAX_SOURCES}` })
  .describe(`Web pages read at most, 1..${MAX_SOURCES} (default ${DEFAULT_MAX_SOURCES}).`);

const contentBody = z.strictObject({ max_sources: maxSources.optional(), ...jobOptionFields });

const topicBody = z.strictObject({
  topic: requiredText(255).describe('What to research, 1..255 characters.'),
  keyword: optionalText(255).optional().describe('The search keyword (up to 255 characters); the topic is searched when absent.'),
  avatar_id: refId().nullable().optional().describe('A customer avatar of the account (400 `invalid_reference` otherwise; nothing runs).'),
  project_id: refId().nullable().optional().describe(docs.PROJECT_ID),
  max_sources: maxSources.optional(),
  ...jobOptionFields,
});

const runResponses = {
  201: {
    description: 'The run finished within the wait bound: its result.',
    schema: ResearchResultSchema,
    headers: PREFERENCE_APPLIED_HEADER,
  },
  202: {
    description: 'Still running past the wait bound: the job; poll `Location`.',
    schema: JobSchema,
    headers: ACCEPTED_JOB_START_HEADERS,
  },
};

const runErrors = [
  { status: 400, code: 'invalid_idempotency_key', description: 'Idempotency-Key is not 1..255 visible ASCII characters; nothing runs.' },
  {
    status: 409,
    code: 'idempotency_key_reused',
    description: 'The account used this key for another request (another route, item or body); nothing runs.',
  },
  { status: 503, code: 'temporal_unavailable', description: 'The job engine did not answer; retry with the same key.' },
  { status: 500, code: 'job_failed', description: 'The run failed without a coded reason (details in the Temporal UI).' },
  {
    status: 422,
    code: 'research_text_unstorable',
    description: 'A page or claim text could not be stored (characters Postgres refuses); the run failed.',
  },
];

function idempotencyKeyOf(header: string): string | undefined {
  return header ? validIdempotencyKey(header) : undefined;
}

/** Research runs (start and wait) and the research stored on an item. */
export function researchRoutes(): RouteDef[] {
  return [
    ...twinRoutes(
      {
        method: 'post',
        path: '/marketing/content/{id}/research',
        operationId: 'researchMarketingContent',
        tags,
        permission: 'marketing.content:update',
        summary: 'Research a content item: knowledge bases, web search, pages, artifact, settings.research.',
        description: `${docs.CONTENT_RUN}\n\n${JOB_OPTIONS_DOC}\n\n${PREFER_DOC}`,
        params: idParams,
        body: contentBody,
        responses: runResponses,
        errors: [errorSpecs.notFound, ...runErrors, ...JOB_OPTIONS_ERRORS],
      },
      async ({ params, body, auth, deps, ctx, requestId }) => {
        const idempotencyKey = idempotencyKeyOf(ctx.get('idempotency-key'));
        const route = `POST ${auth.kind === 'agent' ? '/api/agent' : '/api'}/marketing/content/{id}/research`;
        const wait = jobWait(ctx.get('prefer'), deps.config.RESEARCH_WAIT_SECONDS);
        const outcome = await researchContent(deps, {
          accountId: accountOf(auth),
          requestId,
          idempotencyKey,
          route,
          wait,
          contentId: params.id,
          maxSources: body.max_sources,
          options: await jobStartOptionsOf(deps, accountOf(auth), body),
        });
        return jobStartAnswer(outcome, wait, { jobsBase: jobsBaseOf(auth) });
      },
    ),

    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/content/{id}/research',
        operationId: 'getMarketingContentResearch',
        tags,
        permission: 'marketing.content:read',
        summary: 'The research stored on a content item.',
        description: docs.CONTENT_GET,
        params: idParams,
        responses: { 200: { description: 'The stored research', schema: StoredResearchSchema } },
        errors: [errorSpecs.notFound],
      },
      async ({ params, auth, deps }) => ({ body: await getResearch(deps.db, accountOf(auth), params.id) }),
    ),

    route(
      {
        method: 'post',
        path: '/api/agent/marketing/content/research',
        operationId: 'researchTopicAgent',
        tags,
        auth: { kind: 'agent', permission: 'marketing.content:create' },
        summary: 'Research a topic without a content item; nothing is stamped.',
        description: `${docs.TOPIC_RUN}\n\n${JOB_OPTIONS_DOC}\n\n${PREFER_DOC}`,
        body: topicBody,
        responses: runResponses,
        errors: [
          { status: 400, code: 'invalid_reference', description: docs.TOPIC_INVALID_REFERENCE },
          ...runErrors,
          ...JOB_OPTIONS_ERRORS,
        ],
      },
      async ({ body, auth, deps, ctx, requestId }) => {
        const idempotencyKey = idempotencyKeyOf(ctx.get('idempotency-key'));
        const wait = jobWait(ctx.get('prefer'), deps.config.RESEARCH_WAIT_SECONDS);
        const outcome = await researchTopic(deps, {
          accountId: accountOf(auth),
          requestId,
          idempotencyKey,
          wait,
          route: 'POST /api/agent/marketing/content/research',
          topic: body.topic,
          keyword: body.keyword ?? null,
          avatarId: body.avatar_id ?? null,
          projectId: body.project_id ?? null,
          maxSources: body.max_sources,
          options: await jobStartOptionsOf(deps, accountOf(auth), body),
        });
        return jobStartAnswer(outcome, wait, { jobsBase: jobsBaseOf(auth) });
      },
    ),
  ];
}
