import { z } from 'zod';
import { MAX_BULK_JOB_IDS } from '../../workflows/jobsBulk.contract';
import { JOB_KIND_PATTERN } from '../temporal/jobIds';
import { JOB_STATUSES, JobTag } from './schemas';

const REPLAY_FROM = ['failed', 'canceled', 'timed_out', 'terminated'];

const instant = z.iso
  .datetime({ offset: true, error: 'must be an RFC 3339 timestamp with a time zone, e.g. 2026-12-01T09:00:00Z' })
  .transform((v) => new Date(v).toISOString());

export const BulkFilterSchema = z
  .strictObject({
    kind: z
      .string()
      .regex(JOB_KIND_PATTERN, 'a job kind is lowercase letters, digits, _ and -')
      .optional()
      .describe('Only jobs of this kind.'),
    status: z
      .enum(JOB_STATUSES)
      .optional()
      .describe(
        'Only jobs in this status: `running` (or absent) for cancel; failed, canceled, timed_out or terminated (or absent) for replay.',
      ),
    from: instant.optional().describe('Only jobs started at or after this instant (RFC 3339).'),
    to: instant.optional().describe('Only jobs started before this instant (RFC 3339); after `from`.'),
    tag: JobTag.optional().describe('Only jobs carrying this tag.'),
  })
  .refine((f) => Object.values(f).some((v) => v !== undefined), {
    error: 'a filter names at least one of kind, status, from, to, tag (`{"status": "running"}` is every running job)',
  })
  .refine((f) => !f.from || !f.to || f.from < f.to, { error: '`from` must be before `to`', path: ['to'] });

export const BulkBody = z
  .strictObject({
    action: z
      .enum(['cancel', 'replay'])
      .describe('`cancel`: request cancellation of running jobs; `replay`: replay closed-without-result jobs.'),
    filter: BulkFilterSchema.optional().describe('The jobs to act on, as a visibility filter of the account’s jobs.'),
    job_ids: z
      .array(z.string().min(1).max(1000))
      .min(1)
      .max(MAX_BULK_JOB_IDS)
      .optional()
      .describe(`The jobs to act on, by id (1–${MAX_BULK_JOB_IDS}; duplicates count once).`),
  })
  .superRefine((body, ctx) => {
    if ((body.filter === undefined) === (body.job_ids === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give exactly one of `filter` and `job_ids`', path: [] });
    }
    const status = body.filter?.status;
    if (status && body.action === 'cancel' && status !== 'running') {
      ctx.addIssue({
        code: 'custom',
        message: 'a bulk cancel acts on running jobs: status is `running` or absent',
        path: ['filter', 'status'],
      });
    }
    if (status && body.action === 'replay' && !REPLAY_FROM.includes(status)) {
      ctx.addIssue({
        code: 'custom',
        message: 'a bulk replay acts on failed, canceled, timed_out or terminated jobs',
        path: ['filter', 'status'],
      });
    }
  });
export type BulkRequest = z.infer<typeof BulkBody>;

export const BulkIdParams = z.object({
  id: z.string().describe('The bulk operation id as returned by `POST /api/jobs/bulk` (URL-encoded).'),
});

export const BulkOperationSchema = z
  .object({
    id: z.string().describe('The bulk operation id, which is also its job id (`jobs-bulk:<account>:<uuid>`).'),
    action: z.enum(['cancel', 'replay']),
    status: z.enum(['running', 'completed', 'failed']).describe('`failed`: the operation itself failed (not one of its jobs).'),
    total: z.number().int().describe('Jobs the operation acts on; a bulk cancel by filter counts them as its batch goes.'),
    succeeded: z.number().int().describe('Jobs canceled (cancellation requested) or replayed.'),
    failed: z
      .number()
      .int()
      .describe('Jobs refused or failed: missing or another account’s ids, not running (cancel), not replayable (replay) …'),
    created_at: z.string().describe('ISO 8601.'),
    completed_at: z.string().nullable().describe('ISO 8601; null while running.'),
  })
  .meta({ id: 'BulkAction', description: 'A bulk cancel or replay of jobs and its counts so far.' });
export type BulkOperation = z.infer<typeof BulkOperationSchema>;
