import { z } from 'zod';
import type { EmailKeyAuth } from '../keys/authenticate';
import type { AuthContext } from '../../auth/types';
import { ApiError } from '../../http/errors';
import { recipientSuppressedError } from '../suppressions/refuse';
import { unsubscribeNotConfiguredError } from '../unsubscribe/links';
import { idParams } from '../../http/ids';
import { route, type ErrorSpec, type RouteDef } from '../../http/route';
import { messageSchema } from './schema';
import { MAX_BATCH, scheduleEmail, sendBatch, sendEmail, type BatchEntry, type SentEmail } from './service';
import { emailByIdRoute } from './emailRoute';
import { scheduledEmailRoutes } from './scheduledRoutes';
import { readStoredEmail, recipientSchema, storedEmailSchema } from './storedEmail';
import * as docs from './docs';

const tags = ['Email sending'];

const emailSchema = z
  .object({
    id: z.string().describe("The email's id (uuid)."),
    object: z.literal('email'),
    messageId: z.string().describe('The Message-ID header of the message, `<id@from-domain>` (also for a test key).'),
    test: z.boolean().describe('true for a test key: nothing was sent.'),
    status: z
      .enum(['queued', 'simulated'])
      .describe("`queued`: a live key's message, accepted and being delivered by its job; `simulated`: a test key, nothing sent."),
    from: z.string(),
    to: z.array(z.string()),
    recipients: z
      .array(recipientSchema.pick({ email: true, type: true, state: true, reason: true }))
      .describe(
        'Every recipient: `queued` (live), `simulated` (test), or `skipped` with the `reason` it is suppressed — the message goes to the others.',
      ),
    created_at: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'SentEmail' });

const batchResults = z
  .array(
    z.union([
      z.object({
        index: z.number().int(),
        id: z.string(),
        messageId: z.string(),
        status: z.enum(['simulated', 'queued', 'scheduled']),
        recipients: emailSchema.shape.recipients,
        scheduled_at: z.string().optional().describe('ISO 8601, for a `scheduled` message.'),
      }),
      z.object({
        index: z.number().int(),
        error: z.object({
          code: z
            .string()
            .describe(
              'validation_failed, domain_not_allowed, domain_not_verified, domain_dkim_not_verified, recipient_suppressed (every recipient suppressed), unsubscribe_not_configured, template_* or (a scheduled message) temporal_unavailable',
            ),
          message: z.string(),
          errors: z
            .array(z.object({ path: z.string(), message: z.string() }))
            .optional()
            .describe('Failing fields (`body.<index>.<field>`) of a validation_failed.'),
          recipients: z
            .array(z.object({ email: z.string(), reason: z.enum(['bounce', 'complaint', 'manual', 'unsubscribe']) }))
            .optional()
            .describe('The suppressed recipients of a recipient_suppressed.'),
        }),
      }),
    ]),
  )
  .describe('One result per message, in the order sent.');

const batchResultSchema = z.object({ data: batchResults }).meta({ id: 'EmailBatchResult' });

const scheduledEmailSchema = emailSchema
  .extend({
    status: z.literal('scheduled').describe('Stored and sent at `scheduled_at` by its job (`email-scheduled:<account>:<id>`).'),
    scheduled_at: z.string().describe('ISO 8601 (UTC) of the time given.'),
  })
  .meta({ id: 'ScheduledEmail' });

const queuedBatchSchema = z
  .object({
    id: z.string().describe('The batch id (uuid).'),
    object: z.literal('batch'),
    job_id: z
      .string()
      .describe('The job sending the batch (`email-batch:<account>:<batch id>`): `GET /api/jobs/{id}` with a session shows its progress.'),
    data: batchResults.describe(
      'One result per message, in the order sent: `queued` for each valid one (see `GET /v1/email/messages/{id}`).',
    ),
  })
  .meta({ id: 'QueuedEmailBatch' });

const batchBody = z
  .array(z.unknown().meta(messageJsonSchema()))
  .min(1, { error: `a batch holds 1 to ${MAX_BATCH} messages` })
  .describe(`1 to ${MAX_BATCH} messages, each shaped like the body of POST /v1/email/send.`);

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': 'Sends this key may make per second on this replica.',
  'RateLimit-Remaining': 'Sends left in the current one-second window.',
  'RateLimit-Reset': 'Seconds until a send slot frees.',
};

const sharedErrors: ErrorSpec[] = [
  { status: 400, code: 'template_not_found', description: 'The template named by the message is not in this account.' },
  { status: 400, code: 'template_variable_missing', description: 'The template uses a variable without a value (`variable`, `missing`).' },
  { status: 400, code: 'template_variable_invalid', description: 'A variable used in the subject holds a line break.' },
  {
    status: 401,
    code: 'api_key_revoked',
    description: 'The key is revoked — also when it is revoked while this request runs, up to the commit point.',
  },
  { status: 403, code: 'domain_not_allowed', description: "The from domain is not in the key's domain allowlist." },
  {
    status: 403,
    code: 'domain_dkim_not_verified',
    description:
      "A live key, and the from domain's DKIM record is not verified yet: live mail is only sent signed. Test keys may send meanwhile.",
  },
  {
    status: 403,
    code: 'domain_not_verified',
    description: 'The from domain is not a verified sender domain of the account (exact match).',
  },
  { status: 429, code: 'rate_limit_exceeded', description: docs.rateLimitExceededError },
  { status: 429, code: 'daily_quota_exceeded', description: docs.dailyQuotaExceededError },
  { status: 503, code: 'smtp_not_configured', description: docs.smtpNotConfiguredError },
  recipientSuppressedError,
  unsubscribeNotConfiguredError,
];

const ORDER = [
  "Checks, in order: the key and its scope (401/403), the body (400 `validation_failed` with field paths; nothing changes), the from domain (403), a live key without a relay (503, nothing counted), the rate limiter (429), then the key's revocation — the commit point.",
  'A **test key** (`svc_test_…`) answers the full response, `status: "simulated"` (200), and sends nothing: no delivery, no stored message, no daily quota (the per-second limit applies to every key).',
  docs.queuedSendDescription,
  "Delivery: one SMTP transaction per recipient when bounces come back by VERP (EMAIL_RETURN_PATH_DOMAIN), each recipient's reply deciding its state: taken → `sent` (`email.sent`); refused at RCPT with a 5xx → `bounced`, a hard bounce that suppresses the address (`email.bounced`); a 4xx or an unreachable relay → `deferred` and retried, with `email.delivery_delayed` after the first failed attempt; still waiting when the delivery time runs out → `failed` (`delivery_expired`). A message no recipient of which was taken fails with `email.failed` and is refunded to the daily cap.",
  "Revocation: a key revoked before this request's commit point answers 401 `api_key_revoked`; a message accepted before the revocation but not yet handed to the relay fails (`api_key_revoked`) instead of being sent.",
  'Per-second limits are per replica: with EMAIL_RATE_REPLICAS = N each replica admits ⌊limit ÷ N⌋ (at least 1) per key. `Idempotency-Key` replays the first response for 24 hours (same id and messageId, one delivery).',
].join('\n\n');

function emailKeyAuth(auth: AuthContext): EmailKeyAuth {
  if (auth.kind !== 'emailKey') throw new ApiError(500, 'internal', 'route needs an email key');
  return auth;
}

const toEmailJson = (e: SentEmail & { status: 'queued' | 'simulated' }): z.infer<typeof emailSchema> => ({
  id: e.id,
  object: 'email',
  messageId: e.messageId,
  test: e.test,
  status: e.status,
  from: e.from,
  to: e.to,
  recipients: e.recipients.map(({ email, type, state, reason }) => ({ email, type, state, ...(reason ? { reason } : {}) })),
  created_at: e.createdAt.toISOString(),
});

const toBatchJson = (entry: BatchEntry) =>
  'email' in entry
    ? {
        index: entry.index,
        id: entry.email.id,
        messageId: entry.email.messageId,
        status: entry.email.status,
        recipients: toEmailJson({ ...entry.email, status: 'queued' }).recipients,
        ...(entry.email.scheduledAt ? { scheduled_at: entry.email.scheduledAt.toISOString() } : {}),
      }
    : entry;

const toScheduledJson = (e: SentEmail & { scheduledAt: Date }): z.infer<typeof scheduledEmailSchema> => ({
  ...toEmailJson({ ...e, status: 'queued' }),
  status: 'scheduled',
  scheduled_at: e.scheduledAt.toISOString(),
});

const emailPath = (id: string) => `/v1/email/emails/${encodeURIComponent(id)}`;

export function emailSendRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path: '/v1/email/send',
        operationId: 'sendEmail',
        tags,
        idempotent: true,
        auth: { kind: 'emailKey', scope: 'email:send' },
        summary: 'Send one email.',
        description: ORDER,
        body: messageSchema,
        maxBodyBytes: 16 * 1024 * 1024,
        responses: {
          200: { description: 'Simulated (test key): nothing sent', schema: emailSchema, headers: RATE_LIMIT_HEADERS },
          202: {
            description: `Accepted (live key): \`queued\` for delivery, with the rate-limit headers; or scheduled (\`scheduled_at\`). ${docs.scheduledSendDescription}`,
            schema: z.union([emailSchema, scheduledEmailSchema]),
            headers: { ...RATE_LIMIT_HEADERS, Location: 'The email: `/v1/email/emails/{id}`.' },
          },
        },
        errors: [
          ...sharedErrors,
          { status: 503, code: 'temporal_unavailable', description: `${docs.queueUnavailableError} ${docs.scheduleUnavailableError}` },
        ],
      },
      async ({ body, auth, deps, requestId }) => {
        if (body.scheduledAt) {
          const email = await scheduleEmail(deps, emailKeyAuth(auth), { ...body, scheduledAt: body.scheduledAt }, requestId);
          return { status: 202, body: toScheduledJson(email), headers: { Location: emailPath(email.id) } };
        }
        const { email, headers } = await sendEmail(deps, emailKeyAuth(auth), body, requestId);
        if (email.status !== 'queued') return { status: 200, body: toEmailJson(email), headers };
        return { status: 202, body: toEmailJson(email), headers: { ...headers, Location: emailPath(email.id) } };
      },
    ),

    route(
      {
        method: 'post',
        path: '/v1/email/batch',
        operationId: 'sendEmailBatch',
        tags,
        idempotent: true,
        auth: { kind: 'emailKey', scope: 'email:batch' },
        summary: `Send up to ${MAX_BATCH} emails in one request.`,
        description: docs.sendEmailBatchDescription,
        body: batchBody,
        maxBodyBytes: 32 * 1024 * 1024,
        responses: {
          200: { description: 'One result per message', schema: batchResultSchema, headers: RATE_LIMIT_HEADERS },
          202: {
            description: docs.sendEmailBatchResponsesR202Description,
            schema: z.union([queuedBatchSchema, batchResultSchema]),
            headers: RATE_LIMIT_HEADERS,
          },
        },
        errors: [
          ...sharedErrors,
          { status: 400, code: 'batch_too_large', description: docs.batchTooLargeError },
          { status: 503, code: 'temporal_unavailable', description: docs.temporalUnavailableError },
        ],
      },
      async ({ body, auth, deps, requestId }) => {
        const { entries, headers, queued, scheduled } = await sendBatch(deps, emailKeyAuth(auth), body, requestId);
        const data = entries.map(toBatchJson);
        if (queued) return { status: 202, body: { id: queued.batchId, object: 'batch', job_id: queued.jobId, data }, headers };
        return { status: scheduled ? 202 : 200, body: { data }, headers };
      },
    ),

    route(
      {
        method: 'get',
        path: '/v1/email/messages/{id}',
        operationId: 'getEmail',
        tags,
        auth: { kind: 'emailKey', scope: 'email:batch' },
        summary: 'Read a sent or queued email and its status.',
        description: docs.getEmailDescription,
        params: idParams,
        responses: { 200: { description: 'The email', schema: storedEmailSchema } },
        errors: [{ status: 404, code: 'email_not_found', description: 'No such email in this account.' }],
      },
      async ({ params, auth, deps }) => ({ body: await readStoredEmail(deps, emailKeyAuth(auth), params.id) }),
    ),

    emailByIdRoute(),
    ...scheduledEmailRoutes(),
  ];
}

/** The JSON schema of one message, so the batch body documents its elements while each is validated on its own. */
function messageJsonSchema(): Record<string, unknown> {
  const json = z.toJSONSchema(messageSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
