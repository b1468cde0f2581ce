import { z } from 'zod';
import { JOB_TOKEN_TTL } from './jobToken';

export const JobEventsQuery = z.strictObject({
  token: z
    .string()
    .max(4096)
    .optional()
    .describe('A job token from `POST /api/jobs/{id}/tokens`, in place of the Authorization header (for `EventSource`).'),
});

export const JobEventStreamSchema = z
  .string()
  .describe('`event:` status | progress | completed | failed | canceled | terminated | timed_out; `id:` resume point; `data:` JSON.');

export const JobTokenBody = z.strictObject({
  ttl_seconds: z
    .number()
    .int()
    .min(JOB_TOKEN_TTL.min)
    .max(JOB_TOKEN_TTL.max)
    .default(JOB_TOKEN_TTL.default)
    .describe(`Lifetime in seconds, ${JOB_TOKEN_TTL.min}–${JOB_TOKEN_TTL.max}; default ${JOB_TOKEN_TTL.default}.`),
});

export const JobTokenSchema = z
  .object({
    token: z.string().describe('`wyjt_…`: read-only, this job only. Shown once; not stored.'),
    expires_at: z.string().describe('ISO 8601; the token answers 401 `job_token_expired` from then on.'),
    events_url: z.string().describe("The job's event stream with the token in the query, ready for `new EventSource(url)`."),
  })
  .meta({ id: 'JobToken' });
