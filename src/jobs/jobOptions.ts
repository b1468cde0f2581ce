import { z } from 'zod';
import { hasCallbackSecret } from '../alerts/service';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import { invalidField } from '../http/fieldErrors';
import { MAX_OUTBOUND_URL_LENGTH, outboundUrlProblem } from '../clients/providers/outboundPost';
import type { JobStartOptions } from '../temporal/jobs';
import { JobTag } from './schemas';

/*
 * `tags`, `metadata` and `callback_url` of every job-starting request body (spread `jobOptionFields` into the body's
 * object). Metadata follows Stripe's limits: a few short keys and short string values, never a data store.
 */

export const MAX_JOB_TAGS = 10;
export const MAX_METADATA_KEYS = 20;
export const MAX_METADATA_KEY_CHARS = 40;
export const MAX_METADATA_VALUE_CHARS = 500;
export const MAX_METADATA_BYTES = 4096;

const metadataKey = z
  .string()
  .min(1)
  .max(MAX_METADATA_KEY_CHARS)
  .regex(/^[A-Za-z0-9_.-]+$/, 'a metadata key is letters, digits, _, . and -');

/** UTF-8 bytes of the keys and values together. */
const metadataBytes = (metadata: Record<string, string>) =>
  Object.entries(metadata).reduce((sum, [key, value]) => sum + Buffer.byteLength(key) + Buffer.byteLength(value), 0);

export const JobMetadata = z
  .record(metadataKey, z.string().max(MAX_METADATA_VALUE_CHARS))
  .refine((metadata) => Object.keys(metadata).length <= MAX_METADATA_KEYS, `at most ${MAX_METADATA_KEYS} keys`)
  .refine((metadata) => metadataBytes(metadata) <= MAX_METADATA_BYTES, `keys and values together at most ${MAX_METADATA_BYTES} bytes`);

export const jobOptionFields = {
  tags: z
    .array(JobTag)
    .max(MAX_JOB_TAGS)
    // Rejected rather than merged: the job shows exactly the tags that were sent.
    .refine((tags) => new Set(tags).size === tags.length, 'tags must not repeat')
    .optional()
    .describe(
      `Up to ${MAX_JOB_TAGS} tags (each 1..128 printable ASCII characters, no repeats): the job carries them as the \`Tags\` search ` +
        "attribute, `GET /api/jobs?tag=` finds it by any of them, and the Temporal UI shows them in the run's summary.",
    ),
  metadata: JobMetadata.optional().describe(
    `Your own strings kept on the job and shown back on it: up to ${MAX_METADATA_KEYS} keys (1..${MAX_METADATA_KEY_CHARS} of ` +
      `A-Z a-z 0-9 _ . -), values up to ${MAX_METADATA_VALUE_CHARS} characters, ${MAX_METADATA_BYTES} bytes in all. Never put secrets here.`,
  ),
  callback_url: z
    .string()
    .max(MAX_OUTBOUND_URL_LENGTH)
    .optional()
    .describe(
      `Where the job's outcome is posted when it closes (an absolute https URL, at most ${MAX_OUTBOUND_URL_LENGTH} characters; ` +
        'the rule of webhook endpoint URLs: no credentials, no private or loopback host). Kept for delivery, not shown on the job. ' +
        "Signed with the account's callback secret: create it first with `POST /api/job-callbacks/secret`.",
    ),
};

/** The paragraph every job-starting route's description ends with. */
export const JOB_OPTIONS_DOC =
  '`tags`, `metadata` and `callback_url` (optional) are kept on the job: `GET /api/jobs?tag=` finds it by a tag, the job ' +
  "shows its tags and metadata, the Temporal UI shows them in the run's summary, and the outcome is posted to " +
  '`callback_url` when the job closes. With an Idempotency-Key they are part of the request: other values under the same ' +
  'key are 409 `idempotency_key_reused`.';

/** The refusal every job-starting route may answer when a `callback_url` cannot be signed yet. */
export const JOB_OPTIONS_ERRORS = [
  {
    status: 409,
    code: 'callback_secret_not_set',
    description:
      '`callback_url` was given but the account has no callback signing secret yet: create it with `POST /api/job-callbacks/secret` ' +
      '(shown once), so the callback can be verified. Nothing was started.',
  },
];

const callbackSecretNotSet = () =>
  new ApiError(
    409,
    'callback_secret_not_set',
    'the account has no callback signing secret: create it with POST /api/job-callbacks/secret before starting jobs with a callback_url',
  );

export interface JobOptionsBody {
  tags?: string[];
  metadata?: Record<string, string>;
  callback_url?: string;
}

/**
 * The start options of a validated body. The callback URL is checked here, against the same rule as webhook endpoints
 * (http only for a loopback host, private hosts only when FETCH_ALLOW_PRIVATE_HOSTS lets the service reach them), and
 * the account must have a callback secret: a callback signed with a secret nobody has seen could not be verified.
 */
export async function jobStartOptionsOf(
  deps: Pick<AppDeps, 'db' | 'config'>,
  accountId: string,
  body: JobOptionsBody,
): Promise<JobStartOptions> {
  if (body.callback_url !== undefined) {
    const allowPrivateHosts = deps.config.FETCH_ALLOW_PRIVATE_HOSTS;
    const problem = outboundUrlProblem(body.callback_url, { allowPrivateHosts, allowHttpLoopback: allowPrivateHosts });
    if (problem) throw invalidField('body.callback_url', problem);
    if (!(await hasCallbackSecret(deps.db, accountId))) throw callbackSecretNotSet();
  }
  const options: JobStartOptions = {};
  if (body.tags?.length) options.tags = body.tags;
  if (body.metadata && Object.keys(body.metadata).length > 0) options.metadata = body.metadata;
  if (body.callback_url) options.callbackUrl = body.callback_url;
  return options;
}
