import { z } from 'zod';
import { cursorPageSchema } from '../http/pagination';
import { JOB_KIND_PATTERN } from '../temporal/jobIds';
import { JOB_STATUSES, JobSummarySchema } from '../temporal/jobJson';

export {
  JOB_STATUSES,
  JobProgressSchema,
  JobSchema,
  JobSummarySchema,
  type Job,
  type JobStatus,
  type JobSummary,
} from '../temporal/jobJson';

/** One job tag: 1–128 printable characters (the `Tags` search attribute holds them). */
export const JobTag = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\x20-\x7e]+$/, 'a tag is printable ASCII')
  .refine((t) => t.trim() === t, 'a tag has no leading or trailing spaces');

export const JobIdParams = z.object({
  id: z.string().describe('Job id as returned when the job was started (URL-encoded).'),
});

export const MAX_JOB_PAGE = 100;
export const DEFAULT_JOB_PAGE = 20;

export const JobListQuery = z.strictObject({
  kind: z
    .string()
    .regex(JOB_KIND_PATTERN, 'a job kind is lowercase letters, digits, _ and -')
    .optional()
    .describe('Only jobs of this kind.'),
  status: z.enum(JOB_STATUSES).optional().describe('Only jobs in this status.'),
  content_id: z.uuid().optional().describe('Only jobs about this content item (the `ContentId` search attribute).'),
  tag: JobTag.optional().describe('Only jobs carrying this tag (the `Tags` search attribute).'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_JOB_PAGE)
    .default(DEFAULT_JOB_PAGE)
    .describe(`Page size, 1–${MAX_JOB_PAGE}; default ${DEFAULT_JOB_PAGE}.`),
  cursor: z.string().max(4096).optional().describe('`next_cursor` of the previous page, with the same filters.'),
});
export type JobListFilters = z.infer<typeof JobListQuery>;

export const JobListSchema = cursorPageSchema(JobSummarySchema, 'JobList');
