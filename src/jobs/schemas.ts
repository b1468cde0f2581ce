import { z } from 'zod';
import { JOB_KIND_PATTERN } from '../temporal/jobIds';

export const JOB_STATUSES = ['running', 'completed', 'failed', 'canceled', 'terminated', 'timed_out'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const JobProgressSchema = z.object({
  phase: z.string(),
  done: z.number(),
  total: z.number().nullable(),
  warnings: z.array(z.string()),
}).describe('What the job reports while it runs (its `progress` query).');

const jobFields = {
  id: z.string().describe('The job id, which is also the Temporal workflow id: `<kind>:<account>:<key>`.'),
  kind: z.string().describe('What the job does (the `JobKind` search attribute).'),
  status: z.enum(JOB_STATUSES),
  run_id: z.string().describe('The Temporal run shown (the latest run of this id).'),
  content_id: z.string().nullable(),
  connection_id: z.string().nullable(),
  project_id: z.string().nullable(),
  created_at: z.string().describe('ISO 8601; when the run started.'),
  closed_at: z.string().nullable().describe('ISO 8601; null while running.'),
  links: z.object({
    temporal_ui: z.string().nullable().describe('This run in the Temporal UI; null when no UI URL is configured.'),
  }),
};

export const JobSummarySchema = z.object(jobFields).describe('A job as listed; fetch it by id for progress, result and error.');

export const JobSchema = z.object({
  ...jobFields,
  cancel_requested: z.boolean().describe('Cancellation was requested (the job may still be winding down).'),
  progress: JobProgressSchema.nullable().describe('Live while running (null when the job reports none or does not answer within 1.5 s); null once closed.'),
  result: z.unknown().describe('The workflow result when completed; null otherwise.'),
  error: z.object({ code: z.string(), message: z.string() }).nullable()
    .describe('When failed: the stable code and message the job failed with (`job_failed` for anything without a code); null otherwise.'),
}).describe('A job: one Temporal workflow execution started for an account.');

export type Job = z.infer<typeof JobSchema>;
export type JobSummary = z.infer<typeof JobSummarySchema>;

export const JobIdParams = z.object({
  id: z.string().describe('Job id as returned when the job was started (URL-encoded).'),
});

export const MAX_JOB_PAGE = 100;
export const DEFAULT_JOB_PAGE = 20;

export const JobListQuery = z.strictObject({
  kind: z.string().regex(JOB_KIND_PATTERN, 'a job kind is lowercase letters, digits, _ and -').optional().describe('Only jobs of this kind.'),
  status: z.enum(JOB_STATUSES).optional().describe('Only jobs in this status.'),
  content_id: z.uuid().optional().describe('Only jobs about this content item (the `ContentId` search attribute).'),
  limit: z.coerce.number().int().min(1).max(MAX_JOB_PAGE).default(DEFAULT_JOB_PAGE).describe(`Page size, 1–${MAX_JOB_PAGE}; default ${DEFAULT_JOB_PAGE}.`),
  cursor: z.string().max(4096).optional().describe('`next_cursor` of the previous page, with the same filters.'),
});
export type JobListFilters = z.infer<typeof JobListQuery>;

export const JobListSchema = z.object({
  data: z.array(JobSummarySchema),
  limit: z.number(),
  next_cursor: z.string().nullable(),
  has_more: z.boolean(),
});
