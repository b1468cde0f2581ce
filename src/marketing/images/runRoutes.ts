import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { validIdempotencyKey } from '../../http/idempotency';
import { idParams } from '../../http/ids';
import type { RouteDef } from '../../http/route';
import { JOB_OPTIONS_DOC, JOB_OPTIONS_ERRORS, jobOptionFields, jobStartOptionsOf } from '../../jobs/jobOptions';
import { JobSchema } from '../../jobs/schemas';
import { jobsBaseOf, jobStartAnswer } from '../../jobs/start/answer';
import { ACCEPTED_JOB_START_HEADERS, PREFER_DOC, PREFERENCE_APPLIED_HEADER } from '../../jobs/start/docs';
import { jobWait } from '../../jobs/start/wait';
import { MAX_SECTION_IMAGES } from '../../../workflows/contentImages.contract';
import { errorSpecs } from '../content/errors';
import { publicBaseUrl } from '../media/representation';
import { twinRoutes } from '../twins';
import { ContentImagesResultSchema } from './result';
import { runContentImages } from './run';
import * as docs from './runDocs';

const tags = ['Marketing images'];

const runBody = z.strictObject({
  replace_featured: z
    .boolean()
    .optional()
    .describe('Plan a hero even when the item has a featured image, and replace it (default false: an existing one is kept).'),
  max_sections: z
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be at least 0' })
    .max(MAX_SECTION_IMAGES, { error: `must be at most ${MAX_SECTION_IMAGES}` })
    .optional()
    .describe(`Section images at most, 0..${MAX_SECTION_IMAGES} (default ${MAX_SECTION_IMAGES}).`),
  ...jobOptionFields,
});

const runErrors = [
  errorSpecs.notFound,
  { status: 400, code: 'invalid_idempotency_key', description: 'Idempotency-Key is not 1..255 visible ASCII characters; nothing runs.' },
  { status: 402, code: 'billing_standing', description: "The account's billing standing is not `good`; nothing runs or is charged." },
  {
    status: 402,
    code: 'quota_exhausted',
    description: "This month's image allowance is used up; refused before planning, nothing is charged.",
  },
  {
    status: 409,
    code: 'idempotency_key_reused',
    description: 'The account used this key for another request (another route, item or body); nothing runs.',
  },
  { status: 503, code: 'image_provider_not_configured', description: 'No image provider is configured (IMAGE_API_KEY); nothing runs.' },
  { status: 503, code: 'temporal_unavailable', description: 'The job engine did not answer; retry with the same key.' },
  { status: 500, code: 'job_failed', description: 'The run failed without a coded reason (details in the Temporal UI).' },
];

/** `POST …/content/{id}/images` and its agent twin: the image run (start and wait). */
export function imageRunRoutes(): RouteDef[] {
  return twinRoutes(
    {
      method: 'post',
      path: '/marketing/content/{id}/images',
      operationId: 'runMarketingContentImages',
      tags,
      permission: 'marketing.content:update',
      summary: 'Generate and place images for a content item: a hero and one per H2 that adds information.',
      description: `${docs.RUN}\n\n${JOB_OPTIONS_DOC}\n\n${PREFER_DOC}`,
      params: idParams,
      body: runBody,
      responses: {
        201: {
          description: 'The run finished within the wait bound: its result.',
          schema: ContentImagesResultSchema,
          headers: PREFERENCE_APPLIED_HEADER,
        },
        202: {
          description: 'Still running past the wait bound: the job; poll `Location`.',
          schema: JobSchema,
          headers: ACCEPTED_JOB_START_HEADERS,
        },
      },
      errors: [...runErrors, ...JOB_OPTIONS_ERRORS],
    },
    async ({ params, body, auth, deps, ctx, requestId }) => {
      const header = ctx.get('idempotency-key');
      const wait = jobWait(ctx.get('prefer'), deps.config.IMAGE_WAIT_SECONDS);
      const outcome = await runContentImages(deps, {
        accountId: accountOf(auth),
        contentId: params.id,
        requestId,
        idempotencyKey: header ? validIdempotencyKey(header) : undefined,
        route: `POST ${auth.kind === 'agent' ? '/api/agent' : '/api'}/marketing/content/{id}/images`,
        publicBaseUrl: publicBaseUrl(deps, ctx),
        replaceFeatured: body.replace_featured ?? false,
        maxSections: body.max_sections ?? MAX_SECTION_IMAGES,
        options: await jobStartOptionsOf(deps, accountOf(auth), body),
        wait,
      });
      return jobStartAnswer(outcome, wait, { jobsBase: jobsBaseOf(auth) });
    },
  );
}
